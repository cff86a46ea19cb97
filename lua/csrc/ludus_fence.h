/*
** Ludus: the work meter shared by the Lua VM, the C library fences and the Rust host.
**
** Every Lua state the host creates carries a pointer to one LudusMeter in the extra space
** of its main thread (LudusMeter, declared in lua/src/abi.rs and written into ludus_abi.h by
** lua/build.rs). The meter holds the budget of the running tick in units: the count hook
** (script-host/src/budget.rs) takes one unit per VM instruction, and work that a single
** instruction or C call can do in bulk is charged here too, in proportion to its size:
**
**   bytes copied, compared or scanned   1 unit per 16 bytes  (LUDUS_CHARGE_BYTES; also
**                                       a number read from a string of 256 bytes or more)
**   bytes a buffer grows by             1 unit per 16 bytes, before it grows (lauxlib.c)
**   values moved (varargs, results)     1 unit per 8 values  (LUDUS_CHARGE_VALUES)
**   pattern-matching steps              1 unit per 8 steps   (LUDUS_STEPS)
**   steps along a hash chain            1 unit per step past the 7th of one lookup
**                                       (LUDUS_CHAIN_STEP: tables and the string table)
**   empty slots `next` passes over     1 unit per 8, past 63 in one call (LUDUS_CHARGE_SLOTS)
**   links of an __index/__newindex chain  1 unit per link past the 4th (LUDUS_CHARGE_LINK)
**   a call made from C (a metamethod, pcall, a library callback)  1 unit
**   a step of a __call chain            1 unit, plus 1 per 8 values it moves
**
** Small operations (under 256 bytes or 64 values) are covered by the instruction that does
** them and charge nothing more. So is a hash chain of 7 steps or fewer: Lua's tables keep
** chains short, so only keys chosen to collide (a hash flood) walk longer ones, and those pay
** for every step, at run time and while a file compiles (the lexer stops a compile once the
** allowance is spent, with the file and line). Once the budget is spent the meter is `exhausted`: the count
** hook of the running thread is armed to fire on the very next instruction, where the host
** ends the stage, and every further charge from a C function raises an error at once.
**
** Work done while a thread's hooks are off is the host's and charges nothing: the finalizers
** of the host's objects run then, at the collector's steps, which follow the heap's size in
** bytes and so differ between builds (see fence.c, HOST_WORK).
**
** The Lua sources are patched at build time (lua/lua.patch) to call the VM half of
** this header; csrc/fence.c fences the standard library.
*/
#ifndef LUDUS_FENCE_H
#define LUDUS_FENCE_H

#include <stddef.h>

#include "ludus_abi.h" /* LudusMeter and LUDUS_CAUSE_* */

struct lua_State;

/* Matching steps a pattern call may take before it charges anything. */
#define LUDUS_FREE_STEPS 16

/*
** The thread running Lua code (or compiling it) on this OS thread: set by
** luaD_rawrunprotected for what it runs (a pcall, a resume, a compile) and restored when it
** returns or unwinds, so it always names a live thread, or is NULL outside the VM. Table
** lookups have no lua_State at hand; they charge through it (ludus_chain_charge).
*/
#if defined(__wasm__)
#define LUDUS_THREAD_LOCAL /* one thread */
#elif defined(_MSC_VER)
#define LUDUS_THREAD_LOCAL __declspec(thread)
#else
#define LUDUS_THREAD_LOCAL _Thread_local
#endif
extern LUDUS_THREAD_LOCAL struct lua_State *ludus_running;

/* Charges `units`; raises a Lua error (from a C function only) when the budget is spent. */
void ludus_charge(struct lua_State *L, size_t units);
/* Charges `units`; never raises: when the budget is spent the next instruction faults. */
void ludus_vm_charge(struct lua_State *L, size_t units);
/* Pattern matching: charges for the steps taken and grants more (raises when spent). */
void ludus_match_refill(struct lua_State *L, long *steps);
/* Called as a memory error is thrown: the stage ends at the next instruction. */
void ludus_memory_error(struct lua_State *L);
/* Charges the meter of `ludus_running` (if any) as ludus_vm_charge does; never raises. */
void ludus_chain_charge(size_t units);
/* Whether the meter of L's state is spent (the lexer stops compiling). */
int ludus_spent(struct lua_State *L);

#define LUDUS_CHARGE_BYTES(L, n) \
  ((size_t)(n) >= 256 ? ludus_vm_charge(L, (size_t)(n) >> 4) : (void)0)
#define LUDUS_CHARGE_VALUES(L, n) \
  ((n) >= 64 ? ludus_vm_charge(L, (size_t)(n) >> 3) : (void)0)
#define LUDUS_CHARGE_KEY(L, k) \
  (ttislngstring(k) ? LUDUS_CHARGE_BYTES(L, tsvalue(k)->u.lnglen) : (void)0)
/* One step along a hash chain; `steps` counts the steps of one lookup. */
#define LUDUS_CHAIN_STEP(steps) \
  ((++(steps) & 7) == 0 ? ludus_chain_charge(8) : (void)0)
/* Empty table slots `next` passed over in one call (charged past 63, 1 unit per 8). */
#define LUDUS_CHARGE_SLOTS(L, n) \
  ((size_t)(n) >= 64 ? ludus_vm_charge(L, (size_t)(n) >> 3) : (void)0)
/* One more link of an __index or __newindex chain (`loop` counts from 0). */
#define LUDUS_CHARGE_LINK(L, loop) ((loop) >= 4 ? ludus_vm_charge(L, 1) : (void)0)
#define LUDUS_STEPS(ms, n) \
  (((ms)->ludus_steps -= (long)(n)) < 0 ? ludus_match_refill((ms)->L, &(ms)->ludus_steps) \
                                        : (void)0)

#endif
