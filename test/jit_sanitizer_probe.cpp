// Makes a compiled pipeline do what a sanitizer must report, to show that the sanitized builds
// instrument JIT-compiled code too (codegen/SanitizeJIT.h): test/expect_sanitizer_report.sh
// runs it and requires the report. Not a test of Halo's behaviour: both programs are wrong on
// purpose, in ways Halo cannot see.
//
//   jit_sanitizer_probe overflow   reads past the end of a caller's buffer: its shape claims 12
//                                  ints where the memory holds 10 (AddressSanitizer)
//   jit_sanitizer_probe race       a histogram whose reduction loop is forced parallel behind
//                                  the schedule's back (ThreadSanitizer)
#include <cstdio>
#include <cstdlib>
#include <cstring>

#include "dsl/Halo.h"
#include "dsl/Function.h"

using namespace halo;

int main(int argc, char **argv) {
    if (argc != 2) {
        std::fprintf(stderr, "usage: %s overflow|race\n", argv[0]);
        return 2;
    }
    Var x("x");
    if (std::strcmp(argv[1], "overflow") == 0) {
        int *memory = static_cast<int *>(std::malloc(10 * sizeof(int)));
        for (int i = 0; i < 10; i++) memory[i] = i;
        const halo_dimension_t shape[] = {{0, 12, 1, 0}};  // two ints more than there are
        Buffer<int> in(memory, 1, shape, "in");
        Func f("f");
        f(x) = in(x) * 2;
        Buffer<int> out = f.realize({12});
        std::printf("no report: out(11) = %d\n", out(11));
        std::free(memory);
        return 0;
    }
    if (std::strcmp(argv[1], "race") == 0) {
        // Several workers, and loops long enough that they take part (a race needs two threads).
        setenv("HALO_NUM_THREADS", "4", 1);
        Func h("h");
        RDom r(0, 200000, "r");
        h(x) = 0;
        h(r % 4) += 1;
        // parallel(r.x) is refused (the iterations share points); set it directly.
        for (Dim &d : h.function()->updates[0].schedule.dims) {
            if (d.var == "r.x") d.for_type = ForType::Parallel;
        }
        h.function()->changed();
        for (int i = 0; i < 20; i++) {
            Buffer<int> out = h.realize({4});
            if (i == 19) std::printf("no report: h(0) = %d\n", out(0));
        }
        return 0;
    }
    std::fprintf(stderr, "unknown mode '%s'\n", argv[1]);
    return 2;
}
