/*
** Ludus: the entry of the hot commands and reads (`ludus.damage`, `ludus.destroy`,
** `ludus.pos`, `ludus.alive`...), past mlua's generic callback.
**
** A call whose arguments are all plain values (nil, booleans, numbers and strings; at most
** four), or one of them a table of at most eight named plain values (`{vx = 1, vy = 2}`),
** goes straight to the host's function (upvalue LUDUS_FAST_CALL, made by
** lua/src/fast.rs) as a `LudusArgs`, strings by their bytes in place. The host builds the
** command with the same conversions as the API list and sends it, or answers the read,
** filling a `LudusResults` with the values the call returns (none for a command), which are
** pushed here (a list of ids as a new table). Any other call, or one the host does
** not take (a wrong argument, a spent budget, outside a stage), goes to the function's
** generic version, which converts, checks, charges and reports it as every other call: so
** the two paths differ only in speed.
**
** Upvalues (LUDUS_FAST_*, ludus_abi.h): the host's state (light userdata), the generic
** function, the function's number in the host's list of fast functions, the host's function
** (light userdata).
*/

#include <stddef.h>

#include "lua.h"
#include "lauxlib.h"

#include "lobject.h"
#include "lstate.h"
#include "ltable.h"

#include "ludus_abi.h"

/* 0 when the host took the call (and filled `out`); anything else: the generic function
** must handle it. */
typedef int (*LudusFastCall)(void *host, lua_Integer which, const LudusArgs *args,
                             LudusResults *out);

#define UPVALUE(self, which) (&(self)->upvalue[(which) - 1])
#define MAX_ARGS ((int)(sizeof(((LudusArgs *)0)->kind) / sizeof(int)))

#define MAX_OPTS ((int)(sizeof(((LudusArgs *)0)->opt_kind) / sizeof(int)))

/* Reads `v` as a plain value (nil, boolean, number, string: a string by its bytes in place):
** 1, or 0 for any other value. */
static int read_plain(const TValue *v, int *kind, long long *whole, double *number,
                      const char **text, long long *len) {
  *whole = 0;
  *number = 0;
  *text = NULL;
  *len = 0;
  if (ttisinteger(v)) {
    *kind = LUDUS_KIND_INT;
    *whole = (long long)ivalue(v);
  } else if (ttisfloat(v)) {
    *kind = LUDUS_KIND_NUM;
    *number = (double)fltvalue(v);
  } else if (ttisstring(v)) {
    TString *ts = tsvalue(v);
    *kind = LUDUS_KIND_STR;
    *text = getstr(ts);
    *len = (long long)tsslen(ts);
  } else if (ttisboolean(v)) {
    *kind = LUDUS_KIND_BOOL;
    *whole = !ttisfalse(v);
  } else if (ttisnil(v)) {
    *kind = LUDUS_KIND_NIL;
  } else {
    return 0;
  }
  return 1;
}

/* Reads the entries of table `t` (in the order `next` walks them: its array part, then its
** nodes) into `args`' opt arrays: 1 where it has at most MAX_OPTS, each a string key and a
** plain value (both kept by the table, an argument, for the whole call); else 0. Raw, as
** `next`: no metamethod runs. Read in place: `lua_next` finds each key again (about 330
** instructions an entry). */
static int read_opts(const Table *t, LudusArgs *args) {
  unsigned int asize = luaH_realasize(t);
  unsigned int size = (unsigned int)sizenode(t);
  /* A table with room for many more entries (one emptied, say) is the generic function's,
  ** whose `next` is charged for the empty slots it passes: this walk is not. */
  if (asize > 2 * MAX_OPTS || size > 4 * MAX_OPTS) return 0;
  for (unsigned int i = 0; i < asize; i++) {
    if (!isempty(&t->array[i])) return 0; /* an integer key */
  }
  int n = 0;
  for (unsigned int i = 0; i < size; i++) {
    const Node *node = gnode(t, i);
    if (isempty(gval(node))) continue;
    if (n == MAX_OPTS ||
        (keytt(node) != ctb(LUA_VSHRSTR) && keytt(node) != ctb(LUA_VLNGSTR)) ||
        !read_plain(gval(node), &args->opt_kind[n], &args->opt_whole[n], &args->opt_number[n],
                    &args->opt_text[n], &args->opt_len[n])) {
      return 0;
    }
    TString *key = keystrval(node);
    args->opt_key[n] = getstr(key);
    args->opt_key_len[n] = (long long)tsslen(key);
    n++;
  }
  args->opts = n;
  return 1;
}

/* A new table of the `n` numbers at `ids` (`{ ids[0], ids[1], ... }`), sized for them at once,
** as the generic function's is. A memory error is raised from here, the host's call done. */
static void push_ids(lua_State *L, const long long *ids, long long n) {
  if (ids == NULL || n < 0 || n > INT32_MAX) n = 0;
  lua_createtable(L, (int)n, 0);
  Table *t = hvalue(s2v(L->top.p - 1));
  for (long long i = 0; i < n; i++) {
    /* Within the array part made above: written in place, as lua_rawseti would. */
    setivalue(&t->array[i], (lua_Integer)ids[i]);
  }
}

int ludus_fast(lua_State *L) {
  /* The arguments and upvalues read in place (as lua_type and lua_touserdata would, without
  ** a call each): this closure is the running C function. */
  StkId func = L->ci->func.p;
  int n = (int)(L->top.p - (func + 1));
  if (n <= MAX_ARGS) {
    CClosure *self = clCvalue(s2v(func));
    LudusArgs args;
    int plain = 1;
    args.n = n;
    args.state = L;
    args.opts = -1;
    for (int i = 0; i < n && plain; i++) {
      const TValue *v = s2v(func + 1 + i);
      if (ttistable(v) && args.opts < 0) {
        /* At most one table a call: its entries in the opt arrays. */
        args.kind[i] = LUDUS_KIND_TABLE;
        args.whole[i] = 0;
        args.number[i] = 0;
        args.text[i] = NULL;
        args.len[i] = 0;
        plain = read_opts(hvalue(v), &args);
      } else {
        plain = read_plain(v, &args.kind[i], &args.whole[i], &args.number[i], &args.text[i],
                           &args.len[i]);
      }
    }
    if (args.opts < 0) args.opts = 0;
    if (plain && self->nupvalues >= LUDUS_FAST_CALL &&
        ttislightuserdata(UPVALUE(self, LUDUS_FAST_HOST)) &&
        ttisinteger(UPVALUE(self, LUDUS_FAST_WHICH)) &&
        ttislightuserdata(UPVALUE(self, LUDUS_FAST_CALL))) {
      LudusFastCall call = (LudusFastCall)pvalue(UPVALUE(self, LUDUS_FAST_CALL));
      LudusResults out;
      out.n = 0;
      out.ids = NULL;
      out.ids_len = 0;
      if (call(pvalue(UPVALUE(self, LUDUS_FAST_HOST)), ivalue(UPVALUE(self, LUDUS_FAST_WHICH)),
               &args, &out) == 0) {
        /* At most two values: within the LUA_MINSTACK slots a C function has. */
        int results = out.n < 0 ? 0 : out.n > 2 ? 2 : out.n;
        for (int i = 0; i < results; i++) {
          switch (out.kind[i]) {
            case LUDUS_KIND_BOOL: lua_pushboolean(L, out.whole[i] != 0); break;
            case LUDUS_KIND_INT: lua_pushinteger(L, (lua_Integer)out.whole[i]); break;
            case LUDUS_KIND_NUM: lua_pushnumber(L, (lua_Number)out.number[i]); break;
            case LUDUS_KIND_IDS: push_ids(L, out.ids, out.ids_len); break;
            default: lua_pushnil(L); break;
          }
        }
        return results;
      }
    }
  }
  lua_pushvalue(L, lua_upvalueindex(LUDUS_FAST_GENERIC));
  lua_insert(L, 1);
  lua_call(L, n, LUA_MULTRET);
  return lua_gettop(L);
}

/* The host's own tables read and written in place, while no Lua code runs (the dispatch's
** arguments, the scripts' handlers): `t` as lua_topointer gives it. */

/* Sets slot `i` (from 1) of table `t`'s array part to the integer `v`: 1; 0, with nothing
** done, where slot `i` is not in the array part. Nothing is allocated, and an integer needs
** no write barrier. */
int ludus_array_int(void *t, long long i, long long v) {
  Table *h = (Table *)t;
  if (h == NULL || i < 1 || (unsigned long long)i > (unsigned long long)luaH_realasize(h))
    return 0;
  setivalue(&h->array[i - 1], (lua_Integer)v);
  return 1;
}

/* Whether table `t` holds a function at the string whose bytes are at `key` (as
** lua_tolstring gives them: a string's TString holds them at `contents`), read raw: 1 or 0;
** -1 where that string is not a short string (looked up otherwise). */
int ludus_holds_function(const void *t, const char *key) {
  const TString *k;
  if (t == NULL || key == NULL) return -1;
  k = (const TString *)(key - offsetof(TString, contents));
  if (k->tt != LUA_VSHRSTR) return -1;
  return ttisfunction(luaH_getshortstr((Table *)t, (TString *)k)) ? 1 : 0;
}
