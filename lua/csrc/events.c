/*
** Ludus: packed event records as reused Lua tables whose fields are decoded on demand.
**
** The host packs each gameplay stage's events into one little-endian byte string, field by
** field, in the order and types of ludus-core's event list (EVENT_KINDS). These functions turn
** the records of one kind into the reused event tables of one script (a "pool"), driven by the
** kind's layout: one type code per field (below), the field names as Lua strings, and the
** names of choice fields. They do not know any event kind themselves. They run inside the VM
** like any C function: bad arguments or records that run past the blob raise Lua errors,
** never crash.
**
** Fields on demand. A pool remembers which fields its script has read (its mask). Filling a
** table writes only those fields; any other field is decoded from the table's record the
** first time it is read (the tables' shared metatable's __index) and joins the mask, so from
** then on it is written when tables are filled. A handler that reads three fields of a
** fourteen-field event pays for three. What a script sees is the same as if every field were
** written, with these exceptions: `next` and `rawget` see only the fields decoded so far
** (`pairs` decodes all first), and the tables' metatable is protected.
**
** Per table the pool keeps where its record starts and which fields it holds (`filled`): a
** field in `filled` that is nil was cleared by the script and stays nil. A table that leaves
** use (a later stage has fewer events) first gets every field, from the blob it was filled
** from, so a table a script kept still reads as it did; when reused, the fields filled beyond
** the mask are cleared again.
**
** Type codes (LUDUS_FIELD_*, ludus_abi.h; declared as `FieldCode` in lua/src/abi.rs):
**   INT      a whole number (i64)            OPT_ID    an entity id, nil when 0 (i64)
**   NUM      a number (f32)                  NUM64     a number (f64)
**   KIND     an archetype: KINDS[u16 + 1]    ACTION    an action: ACTIONS[u8]
**   CHOICE   a choice: choices[field][u8+1]  TEXT      text (u16 length, bytes)
**   OPT_KIND, OPT_TAGS, OPT_NUM  as KIND, INT (tags), NUM, after a presence byte (0: nil)
**   BOOL     a boolean (u8: 0 false)
**
** ludus_pool(spec, KINDS, ACTIONS, next) -> pool
**   spec     the kind's layout: `codes` (one type code per field), `names` (field names),
**            `index` (field name -> 1-based field number), `choices` (choices[i]: the names
**            of field i)
**   KINDS    archetype names by id + 1; ACTIONS action names by id + 1
**   next     the base library's `next` (what `pairs` of an event table iterates with)
** ludus_blob(cap) -> blob
**   an empty event blob with room for `cap` bytes of records (a LudusBlob, ludus_abi.h): the
**   host writes a stage's records into one no pool reads (`pools` 0) and passes it to
**   ludus_decode, where a Lua string of the records works too
** ludus_decode(blob, pos, n, pool) -> list, pos
**   fills the pool's first n tables from the n records at 1-based offset `pos` of `blob`;
**   `list` holds them at 1..n (and nothing after). `pool` nil: only skips the records, with
**   `spec` as a fifth argument, and returns nil, pos.
*/
#include <stddef.h>
#include <string.h>
#include <stdint.h>
#include "lua.h"
#include "lauxlib.h"
/* Lua's own: the fixed-layout fill writes table slots directly (see `put`). */
#include "lobject.h"
#include "lstate.h"
#include "lgc.h"
#include "ltable.h"
#include "lstring.h"

#include "ludus_abi.h"
/* The records' reader and their fields' decoders. */
#include "ludus_record.h"

/* The pool's user values. */
enum {
  UV_SPEC = 1, UV_KINDS, UV_ACTIONS, UV_INDEX, UV_BLOB, UV_SLOTS, UV_TABLES, UV_LIST, UV_META,
  UV_NAMES, UV_CHOICES, UV_COUNT
};

#define MAX_FIELDS 64

/* One table of a pool: where its record starts in the pool's blob (1-based; 0 once it holds
** every field and no longer reads the blob) and the fields written into it. */
typedef struct {
  uint32_t at;
  uint64_t filled;
} Slot;

typedef struct {
  uint64_t mask;   /* fields written when a table is filled */
  uint64_t all;    /* every field */
  int size;        /* bytes per record when every field has a fixed size, else -1 */
  /* The spec's layout, read once when the pool is made (its names and choices tables are
  ** the pool's UV_NAMES and UV_CHOICES): a decode does not look them up by name. */
  int nfields;
  char codes[MAX_FIELDS];
  uint16_t at[MAX_FIELDS]; /* with `size` >= 0: where each field starts in its record */
  TString *name[MAX_FIELDS]; /* the field names (short strings: kept by the spec) */
  /* Where field f's key was last found in a table's hash part: node index + 1 (0: not yet).
  ** The pool's tables are made alike, so one table's place is a good guess for the next;
  ** a guess is used only after checking the key there (see `slot_of`). */
  uint32_t node_at[MAX_FIELDS];
  int n;           /* tables in use: the last decode's count */
  int cap;         /* slots allocated */
  Slot *slots;     /* slots[i - 1] for table i (in the UV_SLOTS userdata) */
} Pool;

static const char POOL[] = "ludus.events.pool";

/* The value at stack index `idx` (not a pseudo-index) of the running C function, read in place
** (as lua_touserdata and the rest find it, without a call). */
static const TValue *at_index(lua_State *L, int idx) {
  return s2v(idx > 0 ? L->ci->func.p + idx : L->top.p + idx);
}

/* luaL_testudata, read in place: the block of the full userdata at stack index `idx` whose
** metatable is the registry's `tname`, or NULL (about 180 instructions against its 300: a
** decode checks its blob and pool at every call). */
static void *udata_of(lua_State *L, int idx, const char *tname) {
  const TValue *o, *mt;
  if (idx > lua_gettop(L) || idx < -lua_gettop(L) || idx == 0) return NULL;
  o = at_index(L, idx);
  if (!ttisfulluserdata(o) || uvalue(o)->metatable == NULL) return NULL;
  mt = luaH_getshortstr(hvalue(&G(L)->l_registry), luaS_new(L, tname));
  if (!ttistable(mt) || hvalue(mt) != uvalue(o)->metatable) return NULL;
  return getudatamem(uvalue(o));
}

/* lua_getiuservalue of user value `n` of the pool at stack index `pool` (checked a pool, so
** with all UV_COUNT - 1 of them), read in place; the caller has made room on the stack. */
static void push_uv(lua_State *L, int pool, int n) {
  Udata *u = uvalue(at_index(L, pool));
  setobj2s(L, L->top.p, &u->uv[n - 1].uv);
  L->top.p++;
}

/* The layout of a spec table at stack index `spec`: pushes names, choices (in that order)
** and returns the type codes. */
static const char *layout(lua_State *L, int spec, size_t *nfields) {
  const char *codes;
  lua_getfield(L, spec, "codes");
  codes = lua_tolstring(L, -1, nfields);
  if (codes == NULL) luaL_error(L, "ludus_decode: the kind has no field codes");
  lua_pop(L, 1); /* the string stays reachable from spec */
  if (*nfields > MAX_FIELDS) luaL_error(L, "ludus_decode: more than %d fields", MAX_FIELDS);
  if (lua_getfield(L, spec, "names") != LUA_TTABLE) luaL_error(L, "ludus_decode: no names");
  if (lua_getfield(L, spec, "choices") != LUA_TTABLE) luaL_error(L, "ludus_decode: no choices");
  return codes;
}

/* Stack positions of a pool's parts while decoding (see `parts_of`). */
typedef struct {
  lua_State *L;
  Pool *pool;
  const char *codes;
  size_t nfields;
  int kinds, actions, names, choices;
  /* The tables at `kinds`, `actions` and `choices`, found once per decode, not per record. */
  Table *kinds_t, *actions_t, *choices_t;
} Parts;

/* Pushes the pool's KINDS, ACTIONS, names and choices; `pool` at stack index `at`. */
static Parts parts_of(lua_State *L, int at) {
  Parts p;
  luaL_checkstack(L, 16, "ludus_decode");
  p.L = L;
  p.pool = (Pool *)udata_of(L, at, POOL);
  if (p.pool == NULL) luaL_typeerror(L, at, POOL);
  push_uv(L, at, UV_KINDS);
  p.kinds = lua_gettop(L);
  push_uv(L, at, UV_ACTIONS);
  p.actions = lua_gettop(L);
  push_uv(L, at, UV_NAMES);
  p.names = lua_gettop(L);
  push_uv(L, at, UV_CHOICES);
  p.choices = lua_gettop(L);
  p.codes = p.pool->codes;
  p.nfields = (size_t)p.pool->nfields;
  p.kinds_t = (Table *)lua_topointer(L, p.kinds);
  p.actions_t = (Table *)lua_topointer(L, p.actions);
  p.choices_t = (Table *)lua_topointer(L, p.choices);
  return p;
}

/* The value slot of field `f`'s key in table `h` (an absent key: the absent-key slot), as
** luaH_getshortstr finds it; first at the node where the pool last found that key, when that
** node holds the key itself (the node's key is compared, so a wrong guess costs a lookup). */
static const TValue *slot_of(Pool *P, Table *h, int f) {
  TString *name = P->name[f];
  uint32_t k = P->node_at[f];
  const TValue *slot;
  ptrdiff_t at;
  if (k != 0 && !isdummy(h) && k <= (uint32_t)sizenode(h)) {
    Node *n = gnode(h, k - 1);
    if (keyisshrstr(n) && keystrval(n) == name) return gval(n);
  }
  slot = luaH_getshortstr(h, name);
  if (!isabstkey(slot) && !isdummy(h)) {
    at = (const Node *)slot - h->node;
    if (at >= 0 && at < (ptrdiff_t)sizenode(h)) P->node_at[f] = (uint32_t)at + 1;
  }
  return slot;
}

/* Writes the fields `want` of the record that `r` starts at into the table at stack index `t`
** (raw: the metatable does not see it), leaving `r` after the record. */
static void fill(Parts *p, Reader *r, int t, uint64_t want) {
  lua_State *L = p->L;
  int size = p->pool->size;
  if (size >= 0) {
    /* Fixed layout: straight to each wanted field, and straight into the table's slot when
    ** it has the key already (as lua_rawset would, without the stack). */
    const unsigned char *rec = take(r, (size_t)size);
    /* The table at `t`, read in place (a C function's index `t` is `func + t`). */
    Table *h = hvalue(s2v(L->ci->func.p + t));
    Table *kinds = p->kinds_t, *actions = p->actions_t, *choices = p->choices_t;
    while (want != 0) {
      int f = __builtin_ctzll(want);
      const TValue *slot = slot_of(p->pool, h, f);
      want &= want - 1;
      if (!isabstkey(slot)) {
        TValue v;
        field_value(L, rec + p->pool->at[f], p->codes[f], f + 1, kinds, actions, choices, &v);
        setobj2t(L, (TValue *)slot, &v);
        invalidateTMcache(h);
        luaC_barrierback(L, obj2gco(h), &v);
      } else {
        Reader at;
        at.L = L;
        at.p = rec + p->pool->at[f];
        at.end = rec + size;
        lua_rawgeti(L, p->names, (lua_Integer)f + 1);
        push_field(&at, p->codes[f], f + 1, p->kinds, p->actions, p->choices);
        lua_rawset(L, t);
      }
    }
    return;
  }
  for (size_t f = 0; f < p->nfields; f++) {
    if (want >> f & 1) {
      lua_rawgeti(L, p->names, (lua_Integer)f + 1);
      push_field(r, p->codes[f], (int)f + 1, p->kinds, p->actions, p->choices);
      lua_rawset(L, t);
    } else {
      skip_field(r, p->codes[f]);
    }
  }
}

#define BLOB "ludus.blob"

/* The records of the blob at stack index `idx` (an event blob or a string) and their length;
** NULL if it is neither. `known`: a userdata there is known to be an event blob (a pool's
** UV_BLOB, which only `read_from` sets to one, after this function checked it). */
static const char *blob_bytes(lua_State *L, int idx, size_t *len, int known) {
  LudusBlob *b;
  if (lua_type(L, idx) == LUA_TSTRING) return lua_tolstring(L, idx, len);
  b = (LudusBlob *)(known ? lua_touserdata(L, idx) : udata_of(L, idx, BLOB));
  if (b == NULL) return NULL;
  *len = (size_t)b->len;
  return (const char *)(b + 1);
}

int ludus_blob(lua_State *L) {
  lua_Integer cap = luaL_checkinteger(L, 1);
  LudusBlob *b;
  if (cap < 0 || cap >= (lua_Integer)UINT32_MAX) return luaL_error(L, "ludus_blob: bad size");
  b = (LudusBlob *)lua_newuserdatauv(L, sizeof(LudusBlob) + (size_t)cap, 0);
  b->len = 0;
  b->cap = cap;
  b->pools = 0;
  if (luaL_newmetatable(L, BLOB)) {
    lua_pushboolean(L, 0);
    lua_setfield(L, -2, "__metatable");
  }
  lua_setmetatable(L, -2);
  return 1;
}

/* Makes the blob at stack index `blob` (a string, or an event blob `blob_bytes` checked) the
** one the pool's tables (pool at `pool`) read, and keeps the blobs' counts of pools that read
** them. */
static void read_from(lua_State *L, int pool, int blob) {
  push_uv(L, pool, UV_BLOB);
  if (!lua_rawequal(L, -1, blob)) {
    LudusBlob *was = (LudusBlob *)lua_touserdata(L, -1);
    LudusBlob *now = (LudusBlob *)lua_touserdata(L, blob);
    if (was != NULL) was->pools--;
    if (now != NULL) now->pools++;
    lua_pushvalue(L, blob);
    lua_setiuservalue(L, pool, UV_BLOB);
  }
  lua_pop(L, 1);
}

/* The blob a pool's tables read (pushed), as a reader at 1-based offset `at`. */
static Reader blob_at(lua_State *L, int pool, uint32_t at) {
  Reader r;
  size_t len = 0;
  const char *blob;
  lua_getiuservalue(L, pool, UV_BLOB);
  blob = blob_bytes(L, -1, &len, 1);
  r.L = L;
  if (blob == NULL || at < 1 || (size_t)(at - 1) > len) luaL_error(L, "ludus_decode: no record");
  r.p = (const unsigned char *)blob + (at - 1);
  r.end = (const unsigned char *)blob + len;
  return r;
}

/* Gives table `i` of the pool (at stack index `pool`), at stack index `t`, every field it
** does not hold yet, from its record; it then no longer reads the blob. */
static void complete(Parts *p, int pool, int t, int i) {
  Slot *s = &p->pool->slots[i - 1];
  if (s->at != 0 && s->filled != p->pool->all) {
    Reader r = blob_at(p->L, pool, s->at);
    fill(p, &r, t, p->pool->all & ~s->filled);
    lua_pop(p->L, 1);
  }
  s->filled = p->pool->all;
  s->at = 0;
}

/* Makes room for `n` slots. */
static void reserve(lua_State *L, int pool, Pool *P, int n) {
  if (n <= P->cap) return;
  int cap = P->cap < 16 ? 16 : P->cap;
  while (cap < n) cap = cap > INT32_MAX / 2 ? n : cap * 2;
  Slot *slots = (Slot *)lua_newuserdatauv(L, (size_t)cap * sizeof(Slot), 0);
  if (P->cap > 0) memcpy(slots, P->slots, (size_t)P->cap * sizeof(Slot));
  memset(slots + P->cap, 0, (size_t)(cap - P->cap) * sizeof(Slot));
  lua_setiuservalue(L, pool, UV_SLOTS);
  P->slots = slots;
  P->cap = cap;
}

/* The number (1-based) of the field named by the value at stack index `k`, or 0. */
static lua_Integer field_of(lua_State *L, int pool, int k) {
  lua_Integer f = 0;
  if (lua_type(L, k) != LUA_TSTRING) return 0;
  lua_getiuservalue(L, pool, UV_SPEC);
  lua_getfield(L, -1, "index");
  lua_pushvalue(L, k);
  if (lua_rawget(L, -2) == LUA_TNUMBER) f = lua_tointeger(L, -1);
  lua_pop(L, 3);
  return f;
}

/* The number (1-based) of the pool's table at stack index `t`, or 0 for another table. */
static int table_of(lua_State *L, int pool, Pool *P, int t) {
  lua_Integer i = 0;
  lua_getiuservalue(L, pool, UV_INDEX);
  lua_pushvalue(L, t);
  if (lua_rawget(L, -2) == LUA_TNUMBER) i = lua_tointeger(L, -1);
  lua_pop(L, 2);
  return i >= 1 && i <= P->cap ? (int)i : 0;
}

/* __index(t, k) of a pool's tables: decodes field k from t's record. Upvalue 1: the pool. */
static int lazy_index(lua_State *L) {
  const int pool = lua_upvalueindex(1);
  Pool *P = (Pool *)lua_touserdata(L, pool);
  lua_Integer f = field_of(L, pool, 2);
  int i = table_of(L, pool, P, 1);
  Slot *s;
  Parts p;
  Reader r;
  if (f < 1 || i == 0) return 0;
  s = &P->slots[i - 1];
  /* Held (and so cleared by the script), or no record to read. */
  if ((s->filled >> (f - 1) & 1) || s->at == 0) return 0;
  lua_settop(L, 2);
  lua_pushvalue(L, pool);
  p = parts_of(L, lua_gettop(L));
  r = blob_at(L, pool, s->at);
  for (lua_Integer g = 1; g < f; g++) skip_field(&r, p.codes[g - 1]);
  push_field(&r, p.codes[f - 1], (int)f, p.kinds, p.actions, p.choices);
  lua_pushvalue(L, 2);
  lua_pushvalue(L, -2);
  lua_rawset(L, 1);
  s->filled |= (uint64_t)1 << (f - 1);
  P->mask |= (uint64_t)1 << (f - 1);
  return 1;
}

/* __newindex(t, k, v): a field the script writes is one it uses (filled from then on). */
static int lazy_newindex(lua_State *L) {
  const int pool = lua_upvalueindex(1);
  Pool *P = (Pool *)lua_touserdata(L, pool);
  lua_Integer f = field_of(L, pool, 2);
  int i = table_of(L, pool, P, 1);
  if (f >= 1 && i != 0) {
    P->slots[i - 1].filled |= (uint64_t)1 << (f - 1);
    P->mask |= (uint64_t)1 << (f - 1);
  }
  lua_settop(L, 3);
  lua_rawset(L, 1);
  return 0;
}

/* __pairs(t): every field first, then next, t, nil. Upvalues: the pool, `next`. */
static int lazy_pairs(lua_State *L) {
  const int pool = lua_upvalueindex(1);
  Pool *P = (Pool *)lua_touserdata(L, pool);
  int i;
  luaL_checktype(L, 1, LUA_TTABLE);
  lua_settop(L, 1);
  i = table_of(L, pool, P, 1);
  if (i != 0) {
    Parts p;
    lua_pushvalue(L, pool);
    p = parts_of(L, lua_gettop(L));
    complete(&p, pool, 1, i);
    lua_settop(L, 1);
  }
  lua_pushvalue(L, lua_upvalueindex(2));
  lua_pushvalue(L, 1);
  lua_pushnil(L);
  return 3;
}

int ludus_pool(lua_State *L) {
  size_t nfields;
  const char *codes;
  Pool *P;
  int pool;
  luaL_checktype(L, 1, LUA_TTABLE);
  luaL_checktype(L, 2, LUA_TTABLE);
  luaL_checktype(L, 3, LUA_TTABLE);
  luaL_checktype(L, 4, LUA_TFUNCTION);
  lua_settop(L, 4);
  luaL_checkstack(L, 8, "ludus_pool");
  codes = layout(L, 1, &nfields);
  lua_settop(L, 4);
  if (lua_getfield(L, 1, "index") != LUA_TTABLE) return luaL_error(L, "ludus_pool: no index");
  lua_pop(L, 1);
  P = (Pool *)lua_newuserdatauv(L, sizeof(Pool), UV_COUNT - 1);
  pool = lua_gettop(L);
  P->mask = 0;
  P->all = nfields == 64 ? ~(uint64_t)0 : (((uint64_t)1 << nfields) - 1);
  P->n = 0;
  P->cap = 0;
  P->slots = NULL;
  P->size = 0;
  P->nfields = (int)nfields;
  memcpy(P->codes, codes, nfields);
  memset(P->node_at, 0, sizeof P->node_at);
  lua_getfield(L, 1, "names");
  for (size_t f = 0; f < nfields; f++) {
    int w = fixed_size(codes[f]);
    P->at[f] = (uint16_t)(P->size < 0 ? 0 : P->size);
    P->size = P->size < 0 || w < 0 ? -1 : P->size + w;
    /* The direct writes look names up as short strings. */
    if (lua_rawgeti(L, -1, (lua_Integer)f + 1) != LUA_TSTRING || lua_rawlen(L, -1) > LUAI_MAXSHORTLEN)
      return luaL_error(L, "ludus_pool: field names are short strings");
    P->name[f] = (TString *)lua_topointer(L, -1);
    lua_pop(L, 1);
  }
  lua_setiuservalue(L, pool, UV_NAMES);
  if (luaL_newmetatable(L, POOL)) {
    lua_pushboolean(L, 0);
    lua_setfield(L, -2, "__metatable");
  }
  lua_setmetatable(L, pool);
  lua_pushvalue(L, 1);
  lua_setiuservalue(L, pool, UV_SPEC);
  lua_pushvalue(L, 2);
  lua_setiuservalue(L, pool, UV_KINDS);
  lua_pushvalue(L, 3);
  lua_setiuservalue(L, pool, UV_ACTIONS);
  lua_getfield(L, 1, "choices");
  lua_setiuservalue(L, pool, UV_CHOICES);
  lua_newtable(L);
  lua_setiuservalue(L, pool, UV_INDEX);
  lua_pushliteral(L, "");
  lua_setiuservalue(L, pool, UV_BLOB);
  lua_newtable(L);
  lua_setiuservalue(L, pool, UV_TABLES);
  lua_newtable(L);
  lua_setiuservalue(L, pool, UV_LIST);
  /* The event tables' metatable. */
  lua_createtable(L, 0, 4);
  lua_pushvalue(L, pool);
  lua_pushcclosure(L, lazy_index, 1);
  lua_setfield(L, -2, "__index");
  lua_pushvalue(L, pool);
  lua_pushcclosure(L, lazy_newindex, 1);
  lua_setfield(L, -2, "__newindex");
  lua_pushvalue(L, pool);
  lua_pushvalue(L, 4);
  lua_pushcclosure(L, lazy_pairs, 2);
  lua_setfield(L, -2, "__pairs");
  lua_pushboolean(L, 0);
  lua_setfield(L, -2, "__metatable");
  lua_setiuservalue(L, pool, UV_META);
  lua_settop(L, pool);
  return 1;
}

int ludus_decode(lua_State *L) {
  size_t len = 0;
  const char *blob = blob_bytes(L, 1, &len, 0);
  if (blob == NULL) return luaL_typeerror(L, 1, "event blob");
  lua_Integer pos = luaL_checkinteger(L, 2);
  lua_Integer n = luaL_checkinteger(L, 3);
  Reader r;
  if (pos < 1 || n < 0 || (size_t)(pos - 1) > len || n > INT32_MAX)
    return luaL_error(L, "ludus_decode: records exceed the event blob");
  if (len >= UINT32_MAX) return luaL_error(L, "ludus_decode: the event blob is too long");
  r.L = L;
  r.p = (const unsigned char *)blob + (pos - 1);
  r.end = (const unsigned char *)blob + len;
  if (lua_isnil(L, 4)) {
    /* Skip: the spec is argument 5. */
    size_t nfields;
    const char *codes;
    luaL_checktype(L, 5, LUA_TTABLE);
    codes = layout(L, 5, &nfields);
    for (lua_Integer i = 1; i <= n; i++)
      for (size_t f = 0; f < nfields; f++) skip_field(&r, codes[f]);
    lua_pushnil(L);
    lua_pushinteger(L, (lua_Integer)((const char *)r.p - blob) + 1);
    return 2;
  }
  lua_settop(L, 4);
  Parts p = parts_of(L, 4);
  Pool *P = p.pool;
  int tables, list, index, meta;
  push_uv(L, 4, UV_TABLES);
  tables = lua_gettop(L);
  push_uv(L, 4, UV_LIST);
  list = lua_gettop(L);
  push_uv(L, 4, UV_INDEX);
  index = lua_gettop(L);
  push_uv(L, 4, UV_META);
  meta = lua_gettop(L);
  /* Tables leaving use keep every field, from the blob they were filled from. */
  for (int i = (int)n + 1; i <= P->n; i++) {
    lua_rawgeti(L, tables, i);
    complete(&p, 4, lua_gettop(L), i);
    lua_pop(L, 1);
    lua_pushnil(L);
    lua_rawseti(L, list, i);
  }
  read_from(L, 4, 1);
  reserve(L, 4, P, (int)n);
  /* The pool's tables and the list, read and written in place below (as lua_rawgeti and
  ** lua_rawseti would, without finding them on the stack for every record). */
  Table *tables_t = hvalue(s2v(L->ci->func.p + tables));
  Table *list_t = hvalue(s2v(L->ci->func.p + list));
  for (int i = 1; i <= (int)n; i++) {
    Slot *s = &P->slots[i - 1];
    int t;
    uint64_t stale;
    const TValue *kept = (l_castS2U(i) - 1u < tables_t->alimit) ? &tables_t->array[i - 1]
                                                                 : luaH_getint(tables_t, i);
    if (ttistable(kept)) {
      setobj2s(L, L->top.p, kept);
      L->top.p++;
    } else {
      /* Room for the fields read so far: a small table touches fewer cache lines (it grows
      ** when a field joins the mask). */
      lua_createtable(L, 0, __builtin_popcountll(P->mask));
      lua_pushvalue(L, meta);
      lua_setmetatable(L, -2);
      lua_pushvalue(L, -1);
      lua_rawseti(L, tables, i);
      lua_pushvalue(L, -1);
      lua_pushinteger(L, i);
      lua_rawset(L, index);
      s->filled = 0;
    }
    t = lua_gettop(L);
    /* Fields a completed table holds beyond the mask are decoded on demand again. */
    stale = s->filled & ~P->mask;
    for (size_t f = 0; stale != 0 && f < p.nfields; f++) {
      if (stale >> f & 1) {
        lua_rawgeti(L, p.names, (lua_Integer)f + 1);
        lua_pushnil(L);
        lua_rawset(L, t);
      }
    }
    s->at = (uint32_t)((const char *)r.p - blob) + 1;
    s->filled = P->mask;
    fill(&p, &r, t, P->mask);
    if (l_castS2U(i) - 1u < list_t->alimit) {
      TValue *to = &list_t->array[i - 1];
      setobj2t(L, to, s2v(L->top.p - 1));
      luaC_barrierback(L, obj2gco(list_t), s2v(L->top.p - 1));
      L->top.p--;
    } else {
      lua_rawseti(L, list, i);
    }
  }
  P->n = (int)n;
  lua_pushvalue(L, list);
  lua_pushinteger(L, (lua_Integer)((const char *)r.p - blob) + 1);
  return 2;
}
