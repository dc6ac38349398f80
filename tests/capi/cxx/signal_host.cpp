// signal_host.cpp — a C++ host with its own SIGSEGV handler, installed the way
// vkfftgo.h asks: after the library is loaded, with SA_ONSTACK|SA_SIGINFO, chaining to
// the handler it replaced (the Go runtime's) for faults that are not its own.
//  - The host's own faults (a guard page it protects) are handled by the host.
//  - A fault inside the library's Go code (a bogus descriptor pointer) reaches the Go
//    runtime through the chain, becomes a recovered panic and an error status.
//  - Transforms keep working throughout.
#include <csignal>
#include <cstdio>
#include <cstring>
#include <sys/mman.h>
#include <unistd.h>
#include <vector>
#include <complex>

#include "../check.h"

static struct sigaction previous;
static char *guard_page;
static volatile sig_atomic_t own_faults, chained_faults;

static void host_handler(int sig, siginfo_t *info, void *uctx)
{
	char *addr = static_cast<char *>(info->si_addr);
	if (sig == SIGSEGV && guard_page && addr >= guard_page && addr < guard_page + 4096) {
		own_faults = own_faults + 1;
		mprotect(guard_page, 4096, PROT_READ | PROT_WRITE); // fix it and retry
		return;
	}
	chained_faults = chained_faults + 1;
	if (previous.sa_flags & SA_SIGINFO) {
		previous.sa_sigaction(sig, info, uctx);
	} else if (previous.sa_handler != SIG_DFL && previous.sa_handler != SIG_IGN) {
		previous.sa_handler(sig);
	} else {
		signal(sig, SIG_DFL);
		raise(sig);
	}
}

int main()
{
	// The library is linked, so the Go runtime and its handlers are in place already.
	struct sigaction sa;
	std::memset(&sa, 0, sizeof sa);
	sa.sa_sigaction = host_handler;
	sa.sa_flags = SA_SIGINFO | SA_ONSTACK;
	sigemptyset(&sa.sa_mask);
	if (sigaction(SIGSEGV, &sa, &previous) != 0)
		return 1;
	if (!(previous.sa_flags & SA_ONSTACK))
		std::printf("note: the previous SIGSEGV handler was not SA_ONSTACK\n");

	vkfftgo_device *d = nullptr;
	vkfftgo_plan *p = nullptr;
	CHECK(vkfftgo_device_open(0, &d));
	vkfftgo_plan_desc desc = VKFFTGO_PLAN_DESC_INIT;
	desc.rank = 1;
	desc.shape[0] = 64;
	desc.batch = 4;
	CHECK(vkfftgo_plan_create(d, &desc, &p));
	std::vector<std::complex<float>> x(256), y(256);
	for (size_t i = 0; i < x.size(); i++)
		x[i] = std::complex<float>(float(test_value(i)), 0.0f);

	// 1. the host's own fault, handled by the host
	guard_page = static_cast<char *>(mmap(nullptr, 4096, PROT_NONE, MAP_PRIVATE | MAP_ANONYMOUS, -1, 0));
	if (guard_page == MAP_FAILED)
		return 1;
	static_cast<volatile char *>(guard_page)[10] = 42;
	if (own_faults != 1 || guard_page[10] != 42) {
		std::fprintf(stderr, "host handler did not run\n");
		return 1;
	}

	// 2. a fault inside the library's Go code goes through the chain to the Go runtime,
	//    which turns it into an error status.
	const vkfftgo_plan_desc *bogus = reinterpret_cast<const vkfftgo_plan_desc *>(uintptr_t(16));
	vkfftgo_plan *q = nullptr;
	EXPECT_FAIL(vkfftgo_plan_create(d, bogus, &q), VKFFTGO_ERROR_INTERNAL, "vkfftgo_plan_create|recovered");
	if (chained_faults < 1) {
		std::fprintf(stderr, "the Go fault did not pass through the host handler\n");
		return 1;
	}

	// 3. transforms still work, with the host handler in place
	for (int it = 0; it < 20; it++) {
		CHECK(vkfftgo_forward(p, y.data(), x.data()));
		CHECK(vkfftgo_inverse(p, y.data(), y.data()));
		for (size_t i = 0; i < x.size(); i++)
			if (std::abs(y[i] - x[i]) > 1e-5f)
				return 1;
	}
	CHECK(vkfftgo_plan_destroy(p));
	CHECK(vkfftgo_device_close(d));
	std::printf("signal_host: own faults %d, chained to Go %d, transforms OK: OK\n", int(own_faults),
		    int(chained_faults));
	return 0;
}
