/*
** setjmp/longjmp for wasm32, on top of LLVM's setjmp/longjmp lowering
** (clang -mllvm -wasm-enable-sjlj). The wasi-libc headers ship no <setjmp.h>; this one is
** found first through the include path. See README.md in this folder.
**
** The compiler rewrites every call to setjmp/longjmp into calls of the runtime helpers in
** setjmp.c, so neither function is ever defined: only declared, so that the calls exist.
*/
#ifndef LUDUS_WASM_SETJMP_H
#define LUDUS_WASM_SETJMP_H

/* Room for what setjmp.c keeps per buffer (invocation id, label, and the longjmp argument
** pair), with margin. Only setjmp.c looks inside. */
typedef struct {
  void *slot[8];
} __ludus_jmp_buf;

typedef __ludus_jmp_buf jmp_buf[1];

int setjmp(jmp_buf env) __attribute__((returns_twice));
_Noreturn void longjmp(jmp_buf env, int val);

#endif
