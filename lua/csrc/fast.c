/*
** Ludus: the entry of the hot commands and reads (`ludus.damage`, `ludus.destroy`,
** `ludus.pos`, `ludus.alive`...), past mlua's generic callback.
**
** A call whose arguments are all plain values (nil, booleans, numbers and strings; at most
** four) goes straight to the host's function (upvalue LUDUS_FAST_CALL, made by
** lua/src/fast.rs) as a `LudusArgs`, strings by their bytes in place. The host builds the
** command with the same conversions as the API list and sends it, or answers the read,
** filling a `LudusResults` with the values the call returns (none for a command), which are
** pushed here. Any other call, or one the host does
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

#include "ludus_abi.h"

/* 0 when the host took the call (and filled `out`); anything else: the generic function
** must handle it. */
typedef int (*LudusFastCall)(void *host, lua_Integer which, const LudusArgs *args,
                             LudusResults *out);

#define UPVALUE(self, which) (&(self)->upvalue[(which) - 1])
#define MAX_ARGS ((int)(sizeof(((LudusArgs *)0)->kind) / sizeof(int)))

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
    for (int i = 0; i < n; i++) {
      const TValue *v = s2v(func + 1 + i);
      args.whole[i] = 0;
      args.number[i] = 0;
      args.text[i] = NULL;
      args.len[i] = 0;
      if (ttisinteger(v)) {
        args.kind[i] = LUDUS_KIND_INT;
        args.whole[i] = (long long)ivalue(v);
      } else if (ttisfloat(v)) {
        args.kind[i] = LUDUS_KIND_NUM;
        args.number[i] = (double)fltvalue(v);
      } else if (ttisstring(v)) {
        TString *ts = tsvalue(v);
        args.kind[i] = LUDUS_KIND_STR;
        args.text[i] = getstr(ts);
        args.len[i] = (long long)tsslen(ts);
      } else if (ttisboolean(v)) {
        args.kind[i] = LUDUS_KIND_BOOL;
        args.whole[i] = !ttisfalse(v);
      } else if (ttisnil(v)) {
        args.kind[i] = LUDUS_KIND_NIL;
      } else {
        plain = 0;
        break;
      }
    }
    if (plain && self->nupvalues >= LUDUS_FAST_CALL &&
        ttislightuserdata(UPVALUE(self, LUDUS_FAST_HOST)) &&
        ttisinteger(UPVALUE(self, LUDUS_FAST_WHICH)) &&
        ttislightuserdata(UPVALUE(self, LUDUS_FAST_CALL))) {
      LudusFastCall call = (LudusFastCall)pvalue(UPVALUE(self, LUDUS_FAST_CALL));
      LudusResults out;
      out.n = 0;
      if (call(pvalue(UPVALUE(self, LUDUS_FAST_HOST)), ivalue(UPVALUE(self, LUDUS_FAST_WHICH)),
               &args, &out) == 0) {
        /* At most two values: within the LUA_MINSTACK slots a C function has. */
        int results = out.n < 0 ? 0 : out.n > 2 ? 2 : out.n;
        for (int i = 0; i < results; i++) {
          switch (out.kind[i]) {
            case LUDUS_KIND_BOOL: lua_pushboolean(L, out.whole[i] != 0); break;
            case LUDUS_KIND_INT: lua_pushinteger(L, (lua_Integer)out.whole[i]); break;
            case LUDUS_KIND_NUM: lua_pushnumber(L, (lua_Number)out.number[i]); break;
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
