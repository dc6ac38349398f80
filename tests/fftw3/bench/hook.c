/* The planner hooks of FFTW's tests/hook.c, stubbed. FFTW's own hook.c reaches into
 * FFTW's internal planner (api/api.h, X(planner_hook)) to re-verify every sub-plan the
 * planner considers ("-o paranoid"). libvkfftgo_fftw3 exports only FFTW's public API:
 * there is no internal planner to hook, and bench.c's --verify checks each final plan
 * (linearity, impulse response, time and frequency shifts) without it. */
void install_hook(void);
void uninstall_hook(void);
void install_hook(void) {}
void uninstall_hook(void) {}
