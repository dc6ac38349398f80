# oom — fill the GPU with buffers until allocation fails; plans must then fail with
# ErrOutOfMemory, and work again after AllocCache().Trim() and closing some buffers, with
# free device memory back at its start value at the end. oom.log is the recovery log:
# the "filled:", "NewPlan on the full device:", "after closing 2 buffers" and "all closed
# and trimmed" lines, and PASS.
step oom 600 "$B/vkfft.test" -test.count=1 -test.v -test.run '^TestCUDAOutOfMemory$'
