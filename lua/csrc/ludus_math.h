/*
** Ludus: one implementation of Lua's transcendental functions on every target.
**
** The C libraries differ: glibc (desktop) and wasi-libc (browser) return different last bits
** for sin, exp, pow and the rest on a few percent of inputs, and a replay recorded on one must
** match on the other. The build force-includes this header into every Lua source file
** (`-include`), so `math.sin`, `math.exp`, the `^` operator (luai_numpow) and the others call
** the Rust `libm` crate instead (lua/src/math.rs), which is the same code everywhere.
**
** floor, ceil, fabs, sqrt, fmod, frexp and ldexp stay with the C library: they are exact
** (correctly rounded or error-free) by definition, so every library agrees on them.
*/
#ifndef LUDUS_MATH_H
#define LUDUS_MATH_H

#include <math.h>

double ludus_sin(double x);
double ludus_cos(double x);
double ludus_tan(double x);
double ludus_asin(double x);
double ludus_acos(double x);
double ludus_atan2(double y, double x);
double ludus_exp(double x);
double ludus_log(double x);
double ludus_log2(double x);
double ludus_log10(double x);
double ludus_pow(double x, double y);
double ludus_sinh(double x);
double ludus_cosh(double x);
double ludus_tanh(double x);

#define sin ludus_sin
#define cos ludus_cos
#define tan ludus_tan
#define asin ludus_asin
#define acos ludus_acos
#define atan2 ludus_atan2
#define exp ludus_exp
#define log ludus_log
#define log2 ludus_log2
#define log10 ludus_log10
#define pow ludus_pow
#define sinh ludus_sinh
#define cosh ludus_cosh
#define tanh ludus_tanh

#endif
