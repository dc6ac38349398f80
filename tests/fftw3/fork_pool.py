"""fork_pool.py — Python's multiprocessing with the 'fork' start method (Linux's default)
over pyfftw (an FFTW-linked extension), with libvkfftgo_fftw3 preloaded. The parent plans
a single-precision c2c and a double-precision r2c problem on the GPU and runs them; pool
workers, forked from it, run the inherited plans on new data and plan a problem of their
own. Every result must match numpy.fft, the workers must report that libvkfftgo says
they are forked children (vkfftgo_forked), and the parent must run its plans again
after the pool. tests/fftw3/run.sh runs it under `timeout` with VKFFTGO_FFTW_MIN_SIZE=0
and VKFFTGO_FFTW_LOG=1 (it checks the log), using Debian's python3-pyfftw and
python3-numpy (scripts/setup-fftw3.sh installs them).

    LD_PRELOAD=.../libvkfftgo_fftw3.so python3 fork_pool.py
"""
import ctypes
import multiprocessing as mp
import os
import sys
import time

import numpy as np
import pyfftw

C_SHAPE = (32, 32, 32)
R_SHAPE = (96, 80)
WORKERS = 2
TASKS = 6

# inherited by the workers: plans made in the parent, on its GPU
c_in = pyfftw.empty_aligned(C_SHAPE, dtype="complex64")
c_out = pyfftw.empty_aligned(C_SHAPE, dtype="complex64")
r_in = pyfftw.empty_aligned(R_SHAPE, dtype="float64")
r_out = pyfftw.empty_aligned((R_SHAPE[0], R_SHAPE[1] // 2 + 1), dtype="complex128")
c_plan = pyfftw.FFTW(c_in, c_out, axes=(0, 1, 2), flags=("FFTW_ESTIMATE",))
r_plan = pyfftw.FFTW(r_in, r_out, axes=(0, 1), flags=("FFTW_ESTIMATE",))


def forked():
    """libvkfftgo's own answer (the library the preloaded one loads)."""
    return ctypes.CDLL("libvkfftgo.so.0").vkfftgo_forked()


def rel_err(got, want):
    return float(np.max(np.abs(got - want)) / np.max(np.abs(want)))


def run_inherited(seed):
    rng = np.random.default_rng(seed)
    x = (rng.standard_normal(C_SHAPE) + 1j * rng.standard_normal(C_SHAPE)).astype(np.complex64)
    c_in[:] = x
    c_plan()
    y = rng.standard_normal(R_SHAPE)
    r_in[:] = y
    r_plan()
    return rel_err(c_out, np.fft.fftn(x)), rel_err(r_out, np.fft.rfftn(y))


def task(i):
    errs = run_inherited(100 + i)
    # a plan of the worker's own, of a size the GPU would take
    rng = np.random.default_rng(200 + i)
    z = (rng.standard_normal((64, 64)) + 1j * rng.standard_normal((64, 64))).astype(np.complex128)
    own = pyfftw.builders.ifft2(pyfftw.byte_align(z.copy()), planner_effort="FFTW_ESTIMATE")
    new_err = rel_err(own(), np.fft.ifft2(z))
    return os.getpid(), forked(), errs[0], errs[1], new_err


def main():
    if forked() != 0:
        sys.exit("FAIL: vkfftgo_forked() is 1 in the parent")
    tol_c, tol_r, tol_z = 2e-5, 1e-9, 1e-12
    ec, er = run_inherited(1)
    if ec > tol_c or er > tol_r:
        sys.exit(f"FAIL: parent on the GPU: errors {ec:.2e} (c64 c2c), {er:.2e} (f64 r2c)")
    ctx = mp.get_context("fork")
    t0 = time.monotonic()
    with ctx.Pool(WORKERS) as pool:
        results = pool.map(task, range(TASKS))
    pool_s = time.monotonic() - t0
    pids = set()
    for pid, fk, ec, er, ez in results:
        pids.add(pid)
        if pid == os.getpid() or fk != 1:
            sys.exit(f"FAIL: worker {pid}: vkfftgo_forked() is {fk}")
        if ec > tol_c or er > tol_r or ez > tol_z:
            sys.exit(f"FAIL: worker {pid}: errors {ec:.2e} (c64 c2c), {er:.2e} (f64 r2c), {ez:.2e} (own plan)")
    ec, er = run_inherited(2)
    if ec > tol_c or er > tol_r:
        sys.exit(f"FAIL: parent after the pool: errors {ec:.2e}, {er:.2e}")
    worst = max(max(r[2] / tol_c, r[3] / tol_r, r[4] / tol_z) for r in results)
    print(f"fork_pool: {TASKS} tasks in {len(pids)} forked workers ran the parent's GPU plans and their own on "
          f"FFTW, all equal to numpy.fft (worst error {worst:.2g} of the tolerance); pool {pool_s:.2f} s; "
          f"the parent's GPU plans work afterwards")


if __name__ == "__main__":
    main()
