/*
** Ludus: the work meter (see ludus_fence.h) and the fences around the standard library.
**
** ludus_fence_open(G) replaces, in the library tables reachable from the globals table G:
**   - functions whose work grows with their arguments or results by a wrapper that charges
**     the budget for it: before the call for what the arguments say (string bytes, counts,
**     a pattern's length), after it for the results (bytes of strings, number of values);
**   - tostring by one that never shows an address (type name, or __name, instead);
**   - string.format by one that refuses %p and formats tables and functions with %s as
**     tostring does;
**   - setmetatable by one that refuses __gc (finalizers run with hooks off, outside the budget)
**     and __mode (weak tables show when the collector ran, which differs between runs);
**   - rawset by one that refuses the tables registered as read-only (ludus_freeze).
** Loops inside the library (table.insert, table.sort, string.rep, pattern matching...) are
** charged by the patched Lua sources themselves (lua.patch).
*/
#include <string.h>
#include <stdio.h>
#include "lua.h"
#include "lauxlib.h"
#include "lstate.h"
#include "ludus_fence.h"

/* ---------------------------------------------------------------------------------------- */
/* The meter                                                                                  */

LUDUS_THREAD_LOCAL lua_State *ludus_running = NULL;

static LudusMeter *meter_of(lua_State *L) {
  return *(LudusMeter **)lua_getextraspace(G(L)->mainthread);
}

/* Installs `m` as the meter of every thread of L's state (NULL: unmetered). */
void ludus_set_meter(lua_State *L, LudusMeter *m) {
  *(LudusMeter **)lua_getextraspace(G(L)->mainthread) = m;
}

/* The count hook of L fires at the next instruction (where the host ends the stage). */
static void arm(lua_State *L) {
  int mask = lua_gethookmask(L);
  if (mask & LUA_MASKCOUNT) lua_sethook(L, lua_gethook(L), mask, 1);
}

/* Records the innermost script frame as "file:line" (the prelude is the host's, not a
   script's). Only called where the call stack is complete (C functions, error throws). */
static void locate(lua_State *L, LudusMeter *m) {
  lua_Debug ar;
  int level;
  if (m->place[0] != '\0') return;
  for (level = 0; level < 64 && lua_getstack(L, level, &ar); level++) {
    if (!lua_getinfo(L, "Sl", &ar)) continue;
    if (ar.currentline <= 0 || strcmp(ar.what, "C") == 0) continue;
    if (strcmp(ar.short_src, "ludus") == 0) continue;
    snprintf(m->place, sizeof m->place, "%s:%d", ar.short_src, ar.currentline);
    return;
  }
}

static void spend(lua_State *L, LudusMeter *m, int cause) {
  m->remaining = 0;
  if (!m->exhausted) {
    m->exhausted = 1;
    m->cause = cause;
  }
  arm(L);
}

static int over(LudusMeter *m, size_t units) {
  if (m->exhausted) return 1;
  if ((unsigned long long)units < (unsigned long long)m->remaining) {
    m->remaining -= (long long)units;
    return 0;
  }
  return 1;
}

static l_noret raise_spent(lua_State *L, LudusMeter *m) {
  if (m->cause == LUDUS_CAUSE_MEMORY)
    luaL_error(L, "the script memory limit was exceeded");
  /* %I: lua_pushfstring knows no %lld */
  luaL_error(L, "instruction budget exceeded (%I instructions per tick)", (LUAI_UACINT)m->limit);
  for (;;) {} /* not reached: luaL_error does not return */
}

/* Work done while L's hooks are off is the host's, not a script's: finalizers of the host's
   objects (scripts cannot set __gc) run then, at the collector's steps, which follow the heap's
   size in bytes and so differ between builds (wasm32's structures are smaller than x86-64's);
   charging them would make a script's budget use depend on the platform. */
#define HOST_WORK(L) (!(L)->allowhook)

void ludus_charge(lua_State *L, size_t units) {
  LudusMeter *m = meter_of(L);
  if (m == NULL || HOST_WORK(L) || !over(m, units)) return;
  locate(L, m);
  spend(L, m, LUDUS_CAUSE_BUDGET);
  raise_spent(L, m);
}

void ludus_vm_charge(lua_State *L, size_t units) {
  LudusMeter *m = meter_of(L);
  if (m == NULL || HOST_WORK(L) || !over(m, units)) return;
  spend(L, m, LUDUS_CAUSE_BUDGET);
}

void ludus_match_refill(lua_State *L, long *steps) {
  size_t deficit = (size_t)(-*steps);
  size_t units = deficit / 8 + 8;
  ludus_charge(L, units);
  *steps += (long)(units * 8);
}

void ludus_chain_charge(size_t units) {
  lua_State *L = ludus_running;
  if (L != NULL) ludus_vm_charge(L, units);
}

int ludus_spent(lua_State *L) {
  LudusMeter *m = meter_of(L);
  return m != NULL && m->exhausted;
}

void ludus_memory_error(lua_State *L) {
  LudusMeter *m = meter_of(L);
  if (m == NULL) return;
  if (!m->exhausted) locate(L, m);
  spend(L, m, LUDUS_CAUSE_MEMORY);
}

/* ---------------------------------------------------------------------------------------- */
/* tostring without addresses                                                                */

/* Pushes the text of the value at idx: __tostring's result, or what luaL_tolstring gives for
   nil, booleans, numbers and strings, or (for everything else) __name or the type name. */
static const char *push_text(lua_State *L, int idx) {
  idx = lua_absindex(L, idx);
  if (luaL_callmeta(L, idx, "__tostring")) {
    if (!lua_isstring(L, -1)) luaL_error(L, "'__tostring' must return a string");
    return lua_tostring(L, -1);
  }
  switch (lua_type(L, idx)) {
    case LUA_TNIL: case LUA_TBOOLEAN: case LUA_TNUMBER: case LUA_TSTRING:
      return luaL_tolstring(L, idx, NULL);
    default:
      switch (luaL_getmetafield(L, idx, "__name")) { /* pushes nothing when absent */
        case LUA_TSTRING: return lua_tostring(L, -1);
        case LUA_TNIL: break;
        default: lua_pop(L, 1);
      }
      lua_pushstring(L, luaL_typename(L, idx));
      return lua_tostring(L, -1);
  }
}

static int fence_tostring(lua_State *L) {
  luaL_checkany(L, 1);
  lua_settop(L, 1);
  push_text(L, 1);
  return 1;
}

/* ---------------------------------------------------------------------------------------- */
/* Wrappers that charge for arguments and results                                            */

enum {
  K_CALL,    /* 1 unit, plus arguments and results by count */
  K_BYTES,   /* plus the bytes of every string argument */
  K_PATTERN, /* plus the pattern (argument 2); the matcher charges its own steps */
  K_KEY,     /* plus a long string key (argument 2) */
  K_ULEN,    /* utf8.len: plus the bytes of the range (i, j = 1, -1) */
  K_UCODE,   /* utf8.codepoint: plus the bytes of the range (i, j = 1, i) */
  K_OFFSET,  /* utf8.offset: plus the bytes walked */
  K_SORT,    /* n log n for the length of argument 1 */
  K_FORMAT   /* string.format: as K_BYTES for the format, and %p refused */
};

static size_t add_sat(size_t a, size_t b) {
  return a > (size_t)-1 - b ? (size_t)-1 : a + b;
}

static size_t str_len(lua_State *L, int idx) {
  return lua_type(L, idx) == LUA_TSTRING ? lua_rawlen(L, idx) : 0;
}

/* A 1-based string position as Lua's library reads it (negative counts from the end). */
static lua_Integer position(lua_State *L, int idx, lua_Integer def, size_t len) {
  int isnum;
  lua_Integer p = lua_tointegerx(L, idx, &isnum);
  if (!isnum) p = def;
  if (p < 0) p = (lua_Integer)len + p + 1;
  return p;
}

/* string.format: refuses %p; values with no text of their own are formatted by %s as
   tostring would (the library's own %s would show their address). */
static void check_format(lua_State *L) {
  size_t len;
  const char *f = lua_tolstring(L, 1, &len);
  const char *e = f + len;
  int arg = 1;
  int top = lua_gettop(L);
  if (f == NULL) return; /* the library reports the bad argument */
  while (f < e) {
    if (*f++ != '%') continue;
    if (f < e && *f == '%') {
      f++;
      continue;
    }
    /* flags, width and precision, spanned as the library does */
    while (f < e && *f != '\0' && strchr("-+#0 123456789.", *f) != NULL) f++;
    if (f >= e) return;
    arg++;
    if (*f == 'p')
      luaL_error(L, "string.format: %%p is not available to scripts (addresses differ "
                    "between runs)");
    if (*f == 's' && arg <= top) {
      int t = lua_type(L, arg);
      if (t == LUA_TTABLE || t == LUA_TFUNCTION || t == LUA_TTHREAD || t == LUA_TUSERDATA ||
          t == LUA_TLIGHTUSERDATA) {
        push_text(L, arg);
        lua_replace(L, arg);
        lua_settop(L, top);
      }
    }
    f++;
  }
}

static size_t sort_cost(lua_State *L) {
  size_t n, cost = 0;
  if (lua_type(L, 1) != LUA_TTABLE) return 0;
  n = lua_rawlen(L, 1);
  while (n > 1) {
    cost = add_sat(cost, lua_rawlen(L, 1));
    n >>= 1;
  }
  return cost;
}

static size_t cost_before(lua_State *L, int kind) {
  int top = lua_gettop(L);
  size_t cost = 1 + (size_t)top / 8;
  int i;
  switch (kind) {
    case K_BYTES:
      for (i = 1; i <= top; i++) cost = add_sat(cost, str_len(L, i) >> 4);
      break;
    case K_FORMAT:
      check_format(L);
      cost = add_sat(cost, str_len(L, 1) >> 4);
      break;
    case K_PATTERN:
      cost = add_sat(cost, str_len(L, 2) >> 4);
      break;
    case K_KEY:
      cost = add_sat(cost, str_len(L, 2) >> 4);
      break;
    case K_ULEN:
    case K_UCODE: {
      size_t len = str_len(L, 1);
      lua_Integer i0 = position(L, 2, 1, len);
      lua_Integer j0 = position(L, 3, kind == K_ULEN ? -1 : i0, len);
      if (j0 > i0) cost = add_sat(cost, (size_t)(j0 - i0) >> 4);
      break;
    }
    case K_OFFSET: {
      size_t len = str_len(L, 1);
      int isnum;
      lua_Integer n = lua_tointegerx(L, 2, &isnum);
      size_t walk = isnum ? (n < 0 ? (size_t)0 - (size_t)n : (size_t)n) : 0;
      walk = walk > len / 4 ? len : walk * 4 + 4;
      cost = add_sat(cost, walk >> 4);
      break;
    }
    case K_SORT:
      cost = add_sat(cost, sort_cost(L));
      break;
    default:
      break;
  }
  return cost;
}

static size_t cost_after(lua_State *L, int n) {
  size_t cost = (size_t)n / 8;
  int i;
  for (i = 1; i <= n; i++) cost = add_sat(cost, str_len(L, -i) >> 4);
  return cost;
}

/* upvalue 1: the library function; upvalue 2: its kind */
static int fenced(lua_State *L) {
  lua_CFunction f = lua_tocfunction(L, lua_upvalueindex(1));
  int kind = (int)lua_tointeger(L, lua_upvalueindex(2));
  int n;
  ludus_charge(L, cost_before(L, kind));
  n = f(L);
  if (n > 0) {
    size_t after = cost_after(L, n);
    if (after > 0) ludus_charge(L, after);
  }
  return n;
}

/* ---------------------------------------------------------------------------------------- */
/* setmetatable and rawset                                                                   */

static const char FROZEN_KEY = 'f'; /* its address keys the registry's read-only set */

static int fence_setmetatable(lua_State *L) {
  lua_CFunction f = lua_tocfunction(L, lua_upvalueindex(1));
  if (lua_type(L, 2) == LUA_TTABLE) {
    lua_pushliteral(L, "__gc");
    if (lua_rawget(L, 2) != LUA_TNIL)
      luaL_error(L, "setmetatable: __gc finalizers are not available to scripts (they would "
                    "run outside the instruction budget)");
    lua_pop(L, 1);
    lua_pushliteral(L, "__mode");
    if (lua_rawget(L, 2) != LUA_TNIL)
      luaL_error(L, "setmetatable: weak tables (__mode) are not available to scripts (they "
                    "show when the garbage collector ran, which differs between runs)");
    lua_pop(L, 1);
  }
  ludus_charge(L, 1);
  return f(L);
}

static int is_frozen(lua_State *L, int idx) {
  int frozen;
  if (lua_type(L, idx) != LUA_TTABLE) return 0;
  if (lua_rawgetp(L, LUA_REGISTRYINDEX, &FROZEN_KEY) != LUA_TTABLE) {
    lua_pop(L, 1);
    return 0;
  }
  lua_pushvalue(L, idx);
  frozen = lua_rawget(L, -2) != LUA_TNIL;
  lua_pop(L, 2);
  return frozen;
}

static int fence_rawset(lua_State *L) {
  lua_CFunction f = lua_tocfunction(L, lua_upvalueindex(1));
  if (is_frozen(L, 1)) luaL_error(L, "rawset: this table is read-only");
  ludus_charge(L, cost_before(L, K_KEY));
  return f(L);
}

/* ludus_freeze(t): rawset refuses t from now on. */
int ludus_freeze(lua_State *L) {
  luaL_checktype(L, 1, LUA_TTABLE);
  if (lua_rawgetp(L, LUA_REGISTRYINDEX, &FROZEN_KEY) != LUA_TTABLE) {
    lua_pop(L, 1);
    lua_newtable(L);
    lua_pushvalue(L, -1);
    lua_rawsetp(L, LUA_REGISTRYINDEX, &FROZEN_KEY);
  }
  lua_pushvalue(L, 1);
  lua_pushboolean(L, 1);
  lua_rawset(L, -3);
  lua_pop(L, 1);
  return 0;
}

/* ---------------------------------------------------------------------------------------- */
/* Installation                                                                              */

typedef struct Fence {
  const char *lib; /* NULL: the globals table itself */
  const char *name;
  int kind;
} Fence;

static const Fence FENCES[] = {
  {"string", "byte", K_CALL},       {"string", "char", K_CALL},
  {"string", "sub", K_CALL},        {"string", "rep", K_CALL},
  {"string", "upper", K_BYTES},     {"string", "lower", K_BYTES},
  {"string", "reverse", K_BYTES},   {"string", "pack", K_BYTES},
  {"string", "packsize", K_BYTES},  {"string", "unpack", K_BYTES},
  {"string", "find", K_PATTERN},    {"string", "match", K_PATTERN},
  {"string", "gmatch", K_PATTERN},  {"string", "gsub", K_PATTERN},
  {"string", "format", K_FORMAT},   {"table", "concat", K_CALL},
  {"table", "insert", K_CALL},      {"table", "remove", K_CALL},
  {"table", "move", K_CALL},        {"table", "pack", K_CALL},
  {"table", "unpack", K_CALL},      {"table", "sort", K_SORT},
  {"utf8", "char", K_CALL},         {"utf8", "codepoint", K_UCODE},
  {"utf8", "len", K_ULEN},         {"utf8", "offset", K_OFFSET},
  {"utf8", "codes", K_CALL},        {"math", "max", K_CALL},
  {"math", "min", K_CALL},          {NULL, "tonumber", K_BYTES},
  {NULL, "rawequal", K_BYTES},      {NULL, "rawget", K_KEY},
  {NULL, "next", K_KEY},            {NULL, "select", K_CALL},
  {NULL, "unpack", K_CALL},
};

/* Pushes the table `lib` of the globals at index g (or g itself); returns 0 if absent. */
static int push_lib(lua_State *L, int g, const char *lib) {
  if (lib == NULL) {
    lua_pushvalue(L, g);
    return 1;
  }
  if (lua_getfield(L, g, lib) == LUA_TTABLE) return 1;
  lua_pop(L, 1);
  return 0;
}

/* Replaces lib[name] (a C function without upvalues) by a closure of `wrapper` over it. */
static void wrap(lua_State *L, int g, const char *lib, const char *name, lua_CFunction wrapper,
                 int kind) {
  if (!push_lib(L, g, lib)) return;
  if (lua_getfield(L, -1, name) != LUA_TFUNCTION || !lua_iscfunction(L, -1)) {
    lua_pop(L, 2); /* absent or not a C function: nothing to wrap */
    return;
  }
  if (lua_getupvalue(L, -1, 1) != NULL) {
    lua_pop(L, 3); /* it has upvalues, which the wrapper could not give it */
    return;
  }
  lua_pushinteger(L, kind);
  lua_pushcclosure(L, wrapper, 2);
  lua_setfield(L, -2, name);
  lua_pop(L, 1);
}

/* ludus_fence_open(G): fences the libraries in the globals table G (see the top of the file). */
int ludus_fence_open(lua_State *L) {
  size_t i;
  luaL_checktype(L, 1, LUA_TTABLE);
  for (i = 0; i < sizeof FENCES / sizeof FENCES[0]; i++)
    wrap(L, 1, FENCES[i].lib, FENCES[i].name, fenced, FENCES[i].kind);
  wrap(L, 1, NULL, "setmetatable", fence_setmetatable, 0);
  wrap(L, 1, NULL, "rawset", fence_rawset, 0);
  lua_pushcfunction(L, fence_tostring);
  lua_setfield(L, 1, "tostring");
  return 0;
}
