/*
** Ludus: decoding of packed event records into reused Lua tables.
**
** The host packs each gameplay stage's events into one little-endian byte string (layouts in
** src/encode.rs). This function fills the reused event tables of one kind straight from those
** bytes with the Lua C API: no format string is parsed per event and no table is allocated
** per event once the pool is warm. It runs inside the VM like any C function: bad arguments
** raise Lua errors, never crash.
**
** ludus_decode(kind, blob, pos, n, list, tables, KINDS, ACTIONS) -> pos
**   kind     event kind code (0 spawn, 1 action, 2..7 contacts, 8 expire, 10 damage)
**   blob     the packed records; pos is the 1-based offset of the first record
**   list     receives the n tables at 1..n
**   tables   the pool of reusable tables (grown as needed)
**   KINDS    archetype names by id; ACTIONS action names by id + 1
*/
#include <string.h>
#include <stdint.h>
#include "lua.h"
#include "lauxlib.h"

/* A cursor over the record bytes (little-endian whatever the host's byte order). */
typedef struct { const unsigned char *p; } Reader;

static int64_t rd_i64(Reader *r) {
  uint64_t v = 0;
  for (int k = 7; k >= 0; k--) v = (v << 8) | r->p[k];
  r->p += 8;
  return (int64_t)v;
}

static int32_t rd_i32(Reader *r) {
  uint32_t v = (uint32_t)r->p[0] | ((uint32_t)r->p[1] << 8) | ((uint32_t)r->p[2] << 16) |
               ((uint32_t)r->p[3] << 24);
  r->p += 4;
  return (int32_t)v;
}

static unsigned rd_u16(Reader *r) {
  unsigned v = (unsigned)r->p[0] | ((unsigned)r->p[1] << 8);
  r->p += 2;
  return v;
}

static unsigned rd_u8(Reader *r) {
  return *r->p++;
}

static lua_Number rd_f32(Reader *r) {
  uint32_t bits = (uint32_t)rd_i32(r);
  float f;
  memcpy(&f, &bits, sizeof f);
  return (lua_Number)f;
}

static void set_int(lua_State *L, int t, const char *k, int64_t v) {
  lua_pushinteger(L, (lua_Integer)v);
  lua_setfield(L, t, k);
}

static void set_num(lua_State *L, int t, const char *k, lua_Number v) {
  lua_pushnumber(L, v);
  lua_setfield(L, t, k);
}

/* t[k] = names[id] (nil when unknown) */
static void set_name(lua_State *L, int t, const char *k, int names, lua_Integer id) {
  lua_rawgeti(L, names, id);
  lua_setfield(L, t, k);
}

static const char *const ON[] = {"press", "hold", "release"};
static const char *const REASON[] = {"lifetime", "bounds"};

static size_t record_size(int kind) {
  switch (kind) {
    case 0: return 34;
    case 1: return 52;
    case 2: case 3: case 4: case 5: case 6: case 7: return 60;
    case 8: return 35;
    case 10: return 54;
    default: return 0;
  }
}

int ludus_decode(lua_State *L) {
  int kind = (int)luaL_checkinteger(L, 1);
  size_t len;
  const char *blob = luaL_checklstring(L, 2, &len);
  lua_Integer pos = luaL_checkinteger(L, 3);
  lua_Integer n = luaL_checkinteger(L, 4);
  luaL_checktype(L, 5, LUA_TTABLE);
  luaL_checktype(L, 6, LUA_TTABLE);
  luaL_checktype(L, 7, LUA_TTABLE);
  luaL_checktype(L, 8, LUA_TTABLE);
  size_t size = record_size(kind);
  if (size == 0) return luaL_error(L, "ludus_decode: unknown event kind %d", kind);
  if (pos < 1 || n < 0 || (size_t)(pos - 1) > len || (size_t)n > (len - (size_t)(pos - 1)) / size)
    return luaL_error(L, "ludus_decode: records exceed the event blob");
  luaL_checkstack(L, 8, "ludus_decode");
  Reader r = {(const unsigned char *)blob + (pos - 1)};
  for (lua_Integer i = 1; i <= n; i++) {
    if (lua_rawgeti(L, 6, i) != LUA_TTABLE) {
      lua_pop(L, 1);
      lua_createtable(L, 0, 12);
      lua_pushvalue(L, -1);
      lua_rawseti(L, 6, i);
    }
    int t = lua_gettop(L);
    switch (kind) {
      case 0:
        set_int(L, t, "tick", rd_i64(&r));
        set_int(L, t, "id", rd_i64(&r));
        set_name(L, t, "kind", 7, rd_u16(&r));
        set_int(L, t, "tags", rd_i64(&r));
        set_num(L, t, "x", rd_f32(&r));
        set_num(L, t, "y", rd_f32(&r));
        break;
      case 1: {
        set_int(L, t, "tick", rd_i64(&r));
        set_name(L, t, "action", 8, rd_u8(&r));
        unsigned on = rd_u8(&r);
        lua_pushstring(L, (on >= 1 && on <= 3) ? ON[on - 1] : "press");
        lua_setfield(L, t, "on");
        set_int(L, t, "id", rd_i64(&r));
        set_name(L, t, "kind", 7, rd_u16(&r));
        set_int(L, t, "tags", rd_i64(&r));
        set_num(L, t, "x", rd_f32(&r));
        set_num(L, t, "y", rd_f32(&r));
        set_num(L, t, "fx", rd_f32(&r));
        set_num(L, t, "fy", rd_f32(&r));
        set_num(L, t, "aim_x", rd_f32(&r));
        set_num(L, t, "aim_y", rd_f32(&r));
        break;
      }
      case 8: {
        set_int(L, t, "tick", rd_i64(&r));
        set_int(L, t, "id", rd_i64(&r));
        set_name(L, t, "kind", 7, rd_u16(&r));
        set_int(L, t, "tags", rd_i64(&r));
        set_num(L, t, "x", rd_f32(&r));
        set_num(L, t, "y", rd_f32(&r));
        unsigned reason = rd_u8(&r);
        lua_pushstring(L, (reason == 2) ? REASON[1] : REASON[0]);
        lua_setfield(L, t, "reason");
        break;
      }
      case 10: {
        set_int(L, t, "tick", rd_i64(&r));
        set_int(L, t, "id", rd_i64(&r));
        set_name(L, t, "kind", 7, rd_u16(&r));
        set_int(L, t, "tags", rd_i64(&r));
        set_num(L, t, "x", rd_f32(&r));
        set_num(L, t, "y", rd_f32(&r));
        set_int(L, t, "amount", rd_i32(&r));
        set_int(L, t, "health", rd_i32(&r));
        set_int(L, t, "max", rd_i32(&r));
        int64_t source = rd_i64(&r);
        if (source != 0) lua_pushinteger(L, (lua_Integer)source); else lua_pushnil(L);
        lua_setfield(L, t, "source");
        break;
      }
      default: {
        set_int(L, t, "tick", rd_i64(&r));
        set_int(L, t, "a", rd_i64(&r));
        set_int(L, t, "b", rd_i64(&r));
        set_name(L, t, "a_kind", 7, rd_u16(&r));
        set_name(L, t, "b_kind", 7, rd_u16(&r));
        set_int(L, t, "a_tags", rd_i64(&r));
        set_int(L, t, "b_tags", rd_i64(&r));
        set_num(L, t, "ax", rd_f32(&r));
        set_num(L, t, "ay", rd_f32(&r));
        set_num(L, t, "bx", rd_f32(&r));
        set_num(L, t, "by", rd_f32(&r));
        break;
      }
    }
    lua_rawseti(L, 5, i);
  }
  lua_pushinteger(L, pos + n * (lua_Integer)size);
  return 1;
}
