/*
** The runtime half of LLVM's wasm setjmp/longjmp lowering (clang -mllvm -wasm-enable-sjlj).
**
** For every function that calls setjmp, the compiler allocates a per-invocation id (the
** address of a stack slot that is unique while the function runs) and numbers its setjmp
** call sites from 1 (the label). It then calls:
**
**   __wasm_setjmp(env, label, id)   at the setjmp call: remember which call site, in which
**                                   invocation, filled this buffer; setjmp then returns 0.
**   __wasm_longjmp(env, val)        in place of longjmp: throw a wasm exception with the
**                                   C_LONGJMP tag (tag index 1) whose payload points at
**                                   { env, val }.
**   __wasm_setjmp_test(env, id)     in the catch handler of each function that called
**                                   setjmp: the label to resume at if env was filled by this
**                                   very invocation, otherwise 0 (the exception is rethrown
**                                   to the callers).
**
** The buffer layout is private to this file; <setjmp.h> only reserves room for it.
*/
#include <stddef.h>
#include <stdint.h>

typedef struct {
  void *invocation; /* who filled the buffer: the compiler's per-invocation id */
  uint32_t label;   /* which setjmp call site in that invocation (never 0) */
  struct {
    void *env;      /* the buffer longjmp was given */
    int val;        /* what setjmp returns the second time (never 0) */
  } thrown;         /* the exception payload; lives in the buffer, which outlives the throw */
} Buffer;

_Static_assert(sizeof(Buffer) <= 8 * sizeof(void *), "setjmp.h reserves too little room");

void __wasm_setjmp(void *env, uint32_t label, void *invocation) {
  Buffer *b = env;
  if (label == 0 || invocation == NULL) __builtin_trap(); /* the compiler never does this */
  b->invocation = invocation;
  b->label = label;
}

uint32_t __wasm_setjmp_test(void *env, void *invocation) {
  Buffer *b = env;
  if (b->label == 0 || invocation == NULL) __builtin_trap(); /* longjmp to an unset buffer */
  return b->invocation == invocation ? b->label : 0;
}

void __wasm_longjmp(void *env, int val) {
  Buffer *b = env;
  b->thrown.env = env;
  b->thrown.val = val == 0 ? 1 : val; /* C: setjmp never returns 0 through longjmp */
  __builtin_wasm_throw(1, &b->thrown);
}
