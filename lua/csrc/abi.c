/*
** Ludus: the values C shares with Rust (ludus_abi.h, written by lua/build.rs from
** lua/src/abi.rs) as this compiled C sees them, for the test that compares them with Rust's.
*/
#include <stddef.h>

#include "ludus_abi.h"

/* Writes up to `cap` values into `out` in the order of LUDUS_ABI_VALUES; returns how many
** there are. */
size_t ludus_abi(long long *out, size_t cap) {
  static const long long values[] = LUDUS_ABI_VALUES;
  size_t n = sizeof values / sizeof values[0];
  for (size_t i = 0; i < n && i < cap; i++) out[i] = values[i];
  return n;
}
