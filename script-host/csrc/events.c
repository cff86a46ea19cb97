/*
** Ludus: decoding of packed event records into reused Lua tables.
**
** The host packs each gameplay stage's events into one little-endian byte string, field by
** field, in the order and types of ludus-core's event list (EVENT_KINDS). This function fills
** the reused event tables of one kind straight from those bytes, driven by the kind's layout:
** one type code per field (below), the field names as Lua strings, and the names of choice
** fields. It does not know any event kind itself. It runs inside the VM like any C function:
** bad arguments or records that run past the blob raise Lua errors, never crash.
**
** Type codes (see src/encode.rs):
**   i  a whole number (i64)            o  an entity id, nil when 0 (i64)
**   f  a number (f32)                  d  a number (f64)
**   k  an archetype: KINDS[u16]        a  an action: ACTIONS[u8]
**   c  a choice: choices[field][u8+1]  s  text (u16 length, bytes)
**   K, T, F  as k, i (tags), f, after a presence byte (0: nil)
**
** ludus_decode(blob, pos, n, list, tables, KINDS, ACTIONS, codes, names, choices) -> pos
**   blob     the packed records; pos is the 1-based offset of the first record
**   list     receives the n tables at 1..n
**   tables   the pool of reusable tables (grown as needed)
**   KINDS    archetype names by id; ACTIONS action names by id + 1
**   codes    one type code per field; names the field names; choices[i] the names of field i
*/
#include <string.h>
#include <stdint.h>
#include "lua.h"
#include "lauxlib.h"

/* A cursor over the record bytes (little-endian whatever the host's byte order). */
typedef struct {
  lua_State *L;
  const unsigned char *p, *end;
} Reader;

static const unsigned char *take(Reader *r, size_t n) {
  const unsigned char *at = r->p;
  if ((size_t)(r->end - r->p) < n) luaL_error(r->L, "ludus_decode: records exceed the event blob");
  r->p += n;
  return at;
}

static int64_t rd_i64(Reader *r) {
  const unsigned char *b = take(r, 8);
  uint64_t v = 0;
  for (int k = 7; k >= 0; k--) v = (v << 8) | b[k];
  return (int64_t)v;
}

static unsigned rd_u16(Reader *r) {
  const unsigned char *b = take(r, 2);
  return (unsigned)b[0] | ((unsigned)b[1] << 8);
}

static unsigned rd_u8(Reader *r) {
  return *take(r, 1);
}

static lua_Number rd_f32(Reader *r) {
  const unsigned char *b = take(r, 4);
  uint32_t bits = (uint32_t)b[0] | ((uint32_t)b[1] << 8) | ((uint32_t)b[2] << 16) |
                  ((uint32_t)b[3] << 24);
  float f;
  memcpy(&f, &bits, sizeof f);
  return (lua_Number)f;
}

static lua_Number rd_f64(Reader *r) {
  uint64_t bits = (uint64_t)rd_i64(r);
  double d;
  memcpy(&d, &bits, sizeof d);
  return (lua_Number)d;
}

/* Pushes the value of one field of type `code`. */
static void push_field(Reader *r, char code, int field, int kinds, int actions, int choices) {
  lua_State *L = r->L;
  if (code == 'K' || code == 'T' || code == 'F') {
    if (rd_u8(r) == 0) {
      lua_pushnil(L);
      return;
    }
    code = code == 'K' ? 'k' : code == 'T' ? 'i' : 'f';
  }
  switch (code) {
    case 'i': lua_pushinteger(L, (lua_Integer)rd_i64(r)); break;
    case 'o': {
      int64_t id = rd_i64(r);
      if (id != 0) lua_pushinteger(L, (lua_Integer)id); else lua_pushnil(L);
      break;
    }
    case 'f': lua_pushnumber(L, rd_f32(r)); break;
    case 'd': lua_pushnumber(L, rd_f64(r)); break;
    case 'k': lua_rawgeti(L, kinds, rd_u16(r)); break;
    case 'a': lua_rawgeti(L, actions, (lua_Integer)rd_u8(r) + 1); break;
    case 'c': {
      unsigned v = rd_u8(r);
      if (lua_rawgeti(L, choices, field) == LUA_TTABLE) {
        lua_rawgeti(L, -1, (lua_Integer)v + 1);
        lua_remove(L, -2);
      }
      break;
    }
    case 's': {
      unsigned len = rd_u16(r);
      lua_pushlstring(L, (const char *)take(r, len), len);
      break;
    }
    default: luaL_error(L, "ludus_decode: unknown field type '%c'", code);
  }
}

int ludus_decode(lua_State *L) {
  size_t len, nfields;
  const char *blob = luaL_checklstring(L, 1, &len);
  lua_Integer pos = luaL_checkinteger(L, 2);
  lua_Integer n = luaL_checkinteger(L, 3);
  const char *codes;
  Reader r;
  luaL_checktype(L, 4, LUA_TTABLE);
  luaL_checktype(L, 5, LUA_TTABLE);
  luaL_checktype(L, 6, LUA_TTABLE);
  luaL_checktype(L, 7, LUA_TTABLE);
  codes = luaL_checklstring(L, 8, &nfields);
  luaL_checktype(L, 9, LUA_TTABLE);
  luaL_checktype(L, 10, LUA_TTABLE);
  if (pos < 1 || n < 0 || (size_t)(pos - 1) > len)
    return luaL_error(L, "ludus_decode: records exceed the event blob");
  luaL_checkstack(L, 8, "ludus_decode");
  r.L = L;
  r.p = (const unsigned char *)blob + (pos - 1);
  r.end = (const unsigned char *)blob + len;
  for (lua_Integer i = 1; i <= n; i++) {
    int t;
    if (lua_rawgeti(L, 5, i) != LUA_TTABLE) {
      lua_pop(L, 1);
      lua_createtable(L, 0, (int)nfields);
      lua_pushvalue(L, -1);
      lua_rawseti(L, 5, i);
    }
    t = lua_gettop(L);
    for (size_t f = 0; f < nfields; f++) {
      lua_rawgeti(L, 9, (lua_Integer)f + 1); /* the field's name */
      push_field(&r, codes[f], (int)f + 1, 6, 7, 10);
      lua_rawset(L, t);
    }
    lua_rawseti(L, 4, i);
  }
  lua_pushinteger(L, (lua_Integer)((const char *)r.p - blob) + 1);
  return 1;
}
