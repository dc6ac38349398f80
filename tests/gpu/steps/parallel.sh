# parallel — large staged host round trips on four independent plans, one after another
# and from four goroutines at once (BenchmarkParallelStagedTransfers). The
# "parallel/serial" figure in parallel.log is the ratio of the two times in one run:
# below 1 means transfers of different plans overlap (1 would mean they serialise, as
# behind the old device-wide staging lock).
step parallel 300 "$B/vkfft.test" -test.run '^$' -test.bench 'ParallelStagedTransfers' -test.benchtime 20x
