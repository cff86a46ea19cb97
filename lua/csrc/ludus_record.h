/*
** Ludus: reading the packed event records (see events.c, the one file that includes this):
** a cursor over a blob's bytes, each field type's size, and a field decoded onto the Lua
** stack or into a table slot. Static functions, so events.c's decoder inlines them as it did
** when they were its own.
*/
#ifndef LUDUS_RECORD_H
#define LUDUS_RECORD_H

#include <stddef.h>
#include <string.h>
#include <stdint.h>
#include "lua.h"
#include "lauxlib.h"
#include "lobject.h"
#include "ltable.h"

#include "ludus_abi.h"

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

static uint64_t rd_u64(Reader *r) {
  const unsigned char *b = take(r, 8);
  uint64_t v = 0;
  for (int k = 7; k >= 0; k--) v = (v << 8) | b[k];
  return v;
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
  uint64_t bits = rd_u64(r);
  double d;
  memcpy(&d, &bits, sizeof d);
  return (lua_Number)d;
}

/* The size of a field of type `code`, or -1 when it varies. */
static int fixed_size(char code) {
  switch (code) {
    case LUDUS_FIELD_INT: case LUDUS_FIELD_OPT_ID: case LUDUS_FIELD_NUM64: return 8;
    case LUDUS_FIELD_NUM: return 4;
    case LUDUS_FIELD_KIND: return 2;
    case LUDUS_FIELD_ACTION: case LUDUS_FIELD_CHOICE: case LUDUS_FIELD_BOOL: return 1;
    default: return -1;
  }
}

/* Moves past one field of type `code`. */
static void skip_field(Reader *r, char code) {
  switch (code) {
    case LUDUS_FIELD_INT: case LUDUS_FIELD_OPT_ID: case LUDUS_FIELD_NUM64: take(r, 8); break;
    case LUDUS_FIELD_NUM: take(r, 4); break;
    case LUDUS_FIELD_KIND: take(r, 2); break;
    case LUDUS_FIELD_ACTION: case LUDUS_FIELD_CHOICE: case LUDUS_FIELD_BOOL: take(r, 1); break;
    case LUDUS_FIELD_TEXT: take(r, rd_u16(r)); break;
    case LUDUS_FIELD_OPT_KIND: if (rd_u8(r)) take(r, 2); break;
    case LUDUS_FIELD_OPT_TAGS: if (rd_u8(r)) take(r, 8); break;
    case LUDUS_FIELD_OPT_NUM: if (rd_u8(r)) take(r, 4); break;
    default: luaL_error(r->L, "ludus_decode: unknown field type '%c'", code);
  }
}

/* Pushes the value of field `field` (1-based), of type `code`; `kinds`, `actions` and
** `choices` are stack indices of the tables that name archetypes, actions and choices. */
static void push_field(Reader *r, char code, int field, int kinds, int actions, int choices) {
  lua_State *L = r->L;
  if (code == LUDUS_FIELD_OPT_KIND || code == LUDUS_FIELD_OPT_TAGS ||
      code == LUDUS_FIELD_OPT_NUM) {
    if (rd_u8(r) == 0) {
      lua_pushnil(L);
      return;
    }
    code = code == LUDUS_FIELD_OPT_KIND   ? LUDUS_FIELD_KIND
           : code == LUDUS_FIELD_OPT_TAGS ? LUDUS_FIELD_INT
                                          : LUDUS_FIELD_NUM;
  }
  switch (code) {
    case LUDUS_FIELD_INT: lua_pushinteger(L, (lua_Integer)rd_u64(r)); break;
    case LUDUS_FIELD_OPT_ID: {
      uint64_t id = rd_u64(r);
      if (id != 0) lua_pushinteger(L, (lua_Integer)id); else lua_pushnil(L);
      break;
    }
    case LUDUS_FIELD_NUM: lua_pushnumber(L, rd_f32(r)); break;
    case LUDUS_FIELD_NUM64: lua_pushnumber(L, rd_f64(r)); break;
    case LUDUS_FIELD_KIND: lua_rawgeti(L, kinds, (lua_Integer)rd_u16(r) + 1); break;
    case LUDUS_FIELD_ACTION: lua_rawgeti(L, actions, (lua_Integer)rd_u8(r) + 1); break;
    case LUDUS_FIELD_CHOICE: {
      unsigned v = rd_u8(r);
      if (lua_rawgeti(L, choices, field) == LUA_TTABLE) {
        lua_rawgeti(L, -1, (lua_Integer)v + 1);
        lua_remove(L, -2);
      }
      break;
    }
    case LUDUS_FIELD_BOOL: lua_pushboolean(L, rd_u8(r) != 0); break;
    case LUDUS_FIELD_TEXT: {
      unsigned len = rd_u16(r);
      lua_pushlstring(L, (const char *)take(r, len), len);
      break;
    }
    default: luaL_error(L, "ludus_decode: unknown field type '%c'", code);
  }
}

/* Decodes field `f` (1-based), of fixed-size type `code`, at `b` into `v`, as `push_field`
** would push it; `kinds`, `actions`, `choices` are those tables. */
static void field_value(lua_State *L, const unsigned char *b, char code, int f, Table *kinds,
                        Table *actions, Table *choices, TValue *v) {
  Reader r;
  const TValue *got = NULL;
  r.L = L;
  r.p = b;
  r.end = b + 8;
  switch (code) {
    case LUDUS_FIELD_INT: setivalue(v, (lua_Integer)rd_u64(&r)); return;
    case LUDUS_FIELD_OPT_ID: {
      uint64_t id = rd_u64(&r);
      if (id != 0) {
        setivalue(v, (lua_Integer)id);
      } else {
        setnilvalue(v);
      }
      return;
    }
    case LUDUS_FIELD_NUM: setfltvalue(v, rd_f32(&r)); return;
    case LUDUS_FIELD_NUM64: setfltvalue(v, rd_f64(&r)); return;
    case LUDUS_FIELD_BOOL:
      if (rd_u8(&r) != 0) {
        setbtvalue(v);
      } else {
        setbfvalue(v);
      }
      return;
    case LUDUS_FIELD_KIND: got = luaH_getint(kinds, (lua_Integer)rd_u16(&r) + 1); break;
    case LUDUS_FIELD_ACTION: got = luaH_getint(actions, (lua_Integer)rd_u8(&r) + 1); break;
    case LUDUS_FIELD_CHOICE: {
      unsigned n = rd_u8(&r);
      const TValue *list = luaH_getint(choices, f);
      if (ttistable(list)) got = luaH_getint(hvalue(list), (lua_Integer)n + 1);
      break;
    }
    default: luaL_error(L, "ludus_decode: unknown field type '%c'", code);
  }
  if (got == NULL || isempty(got)) {
    setnilvalue(v);
  } else {
    setobj(L, v, got);
  }
}

#endif
