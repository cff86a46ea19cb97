/*
** Ludus: an ALSA error handler that says nothing. ALSA prints its configuration errors to
** stderr (for example when a machine has no sound card); a missing card is not an error for a
** game, it only means no sound. The handler is variadic, so it is written in C.
*/
void ludus_alsa_quiet(const char *file, int line, const char *function, int err,
                      const char *fmt, ...) {
  (void)file;
  (void)line;
  (void)function;
  (void)err;
  (void)fmt;
}
