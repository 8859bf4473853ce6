// Who owns what: a realized Func frees its compiled pipeline (JIT code, arena, buffers) when
// its last handle goes, and a compiled pipeline recompiles only when one of its own Funcs changed.
#include <doctest/doctest.h>

#include <fstream>
#include <memory>

#include "Halo.h"
#include "TestUtil.h"

using namespace halo;

namespace {

PipelineContents &compiled(const Func &f) {
    REQUIRE(f.function()->pipeline);
    return *f.function()->pipeline;
}

// Resident set size of this process, in MiB (Linux).
double rss_mib() {
    std::ifstream statm("/proc/self/statm");
    long pages = 0, resident = 0;
    statm >> pages >> resident;
    return double(resident) * 4096.0 / (1024.0 * 1024.0);
}

}  // namespace

TEST_CASE("dropping a realized Func frees it and its compiled pipeline") {
    std::weak_ptr<FunctionContents> producer, output;
    {
        Var x("x");
        Func g("g"), f("f");
        g(x) = x * 2;
        f(x) = g(x) + g(x + 1);
        g.compute_root();
        Buffer<int> out = f.realize({16});
        CHECK(out(3) == 6 + 8);
        producer = g.function();
        output = f.function();
    }
    CHECK(producer.expired());
    CHECK(output.expired());
}

TEST_CASE("a Func whose updates read it is freed with its last handle") {
    // f(r) = f(r - 1) + ... stores a reference to f in f's own definition: it must not keep f
    // (nor its compiled pipeline, which refers to f) alive.
    std::weak_ptr<FunctionContents> scan;
    {
        Var x("x");
        RDom r(1, 15, "r");
        Func f("f");
        f(x) = x;
        f(r) = f(r - 1) + f(r);
        f(x) += 1;
        Buffer<int> out = f.realize({16});
        int expected = 0;
        for (int i = 0; i < 16; i++) {
            expected = i == 0 ? 0 : expected + i;
            CHECK(out(i) == expected + 1);
        }
        scan = f.function();
    }
    CHECK(scan.expired());
}

TEST_CASE("an ImageParam's wrappers live as long as a Func reading the image, and are freed with it") {
    // The reads of the image hold its wrappers, which must not hold them back: not even a
    // wrapper whose update reads the image, nor the image's conversion to a Func.
    std::weak_ptr<FunctionContents> wrapper, consumer, as_func;
    {
        Var x("x");
        Buffer<int> in(20);
        for (int i = 0; i < 20; i++) in(i) = i;
        Func f("f");
        {
            ImageParam im(Int(32), 1, "im");
            im.set(in);
            Func image = im;
            f(x) = im(x) + image(x + 1);
            Func w = im.in();
            w(_0) += im(_0 + 2);
            w.compute_root();
            wrapper = w.function();
            as_func = image.function();
        }
        CHECK(!wrapper.expired());
        Buffer<int> out = f.realize({10});
        CHECK(out(4) == (4 + 6) + (5 + 7));
        consumer = f.function();
    }
    CHECK(wrapper.expired());
    CHECK(consumer.expired());
    CHECK(as_func.expired());
}

TEST_CASE("copies of a Func share its compiled pipeline, and it lives as long as any of them") {
    std::weak_ptr<FunctionContents> contents;
    Buffer<int> out(8);
    {
        Var x("x");
        Func f("f");
        f(x) = x + 1;
        Func copy = f;
        f.compile_jit();
        {
            Func second = f;
            second.realize(out);
        }
        CHECK(compiled(copy).compile_count() == 1);
        contents = f.function();
        Func kept = copy;
        f = Func("other");
        copy = Func("other2");
        CHECK(!contents.expired());
        kept.realize(out);
        CHECK(compiled(kept).compile_count() == 1);
    }
    CHECK(contents.expired());
    CHECK(out(7) == 8);
}

TEST_CASE("creating, realizing and dropping many pipelines keeps memory bounded") {
    // Each pipeline holds JIT code, an arena with a 1 MiB intermediate and its Funcs; all of it
    // must go back when the Funcs go. Before, every pipeline leaked (a reference cycle
    // through the compiled pipeline): 20 of them grew the process by hundreds of MiB.
    auto one = [](int i) {
        Var x("x"), y("y");
        Func g("g"), f("f");
        g(x, y) = x + y * i;
        f(x, y) = g(x, y) + g(x + 1, y);
        // Every fourth one has an update that reads f itself (the self-reference that made
        // the cycle); the others compile faster, so that 1,000 fit in the test's time.
        if (i % 4 == 0) f(x, y) += 1;
        g.compute_root();
        Buffer<int> out = f.realize({512, 512});
        CHECK(out(5, 7) == (5 + 7 * i) + (6 + 7 * i) + (i % 4 == 0));
    };
    for (int i = 0; i < 20; i++) one(i);  // warm-up: LLVM's own one-time allocations
#if HALO_TEST_SANITIZED  // test/CMakeLists.txt
    // Sanitizers hold freed memory back (ASan's quarantine), so RSS says nothing there; the
    // pipelines still run, and the tests above check that each is freed.
    for (int i = 0; i < 20; i++) one(i);
#else
    double before = rss_mib();
    const int pipelines = 1000;
    for (int i = 0; i < pipelines; i++) one(i);
    double after = rss_mib();
    INFO("RSS " << before << " MiB before " << pipelines << " pipelines, " << after << " after");
    // A leak of even the 1 MiB intermediate of each would be 1,000 MiB.
    CHECK(after - before < 64.0);
#endif
}

TEST_CASE("defining or scheduling an unrelated Func does not recompile a pipeline") {
    Var x("x");
    Func g("g"), f("f");
    g(x) = x * 3;
    f(x) = g(x) + 1;
    Buffer<int> out = f.realize({8});
    CHECK(compiled(f).compile_count() == 1);
    Func unrelated("unrelated");
    unrelated(x) = x;
    unrelated.compute_root().vectorize(x, 8);
    f.realize(out);
    CHECK(compiled(f).compile_count() == 1);
    CHECK(compiled(f).is_current());
    // A change to a Func the pipeline uses does recompile it.
    g.compute_root();
    CHECK(!compiled(f).is_current());
    f.realize(out);
    CHECK(compiled(f).compile_count() == 2);
    g(x) += 5;  // a new update of the producer: new results
    f.realize(out);
    CHECK(compiled(f).compile_count() == 3);
    CHECK(out(2) == 2 * 3 + 5 + 1);
}

TEST_CASE("a compile that failed is not mistaken for the previous, current one") {
    // After a change that lowering refuses, the next realize must report the error again,
    // not run the code compiled before the change.
    Var x("x"), y("y");
    Func g("g"), f("f");
    g(x, y) = x + y;
    f(x, y) = g(x, y) * 2;
    Buffer<int> out = f.realize({4, 4});
    CHECK(out(1, 2) == 6);
    g.compute_at(f, Var("nowhere"));
    for (int attempt = 0; attempt < 2; attempt++) {
        INFO("attempt " << attempt);
        std::string msg = halo_test::compile_error_of([&] { f.realize(out); });
        CHECK(msg.find("nowhere") != std::string::npos);
    }
    g.compute_root();
    f.realize(out);
    CHECK(out(3, 1) == 8);
}

TEST_CASE("an expression of a Func's own definition outliving the Func is a clear error") {
    Expr read_of_itself;
    {
        Var x("x");
        RDom r(1, 3, "r");
        Func f("f");
        f(x) = x;
        f(r) = f(r - 1) + 1;
        read_of_itself = f.update_value(0);
    }
    Var x("x");
    Func g("g");
    std::string msg = halo_test::compile_error_of([&] { g(x) = read_of_itself; });
    CHECK(msg.find("Func 'g'") != std::string::npos);
    CHECK(msg.find("reads Func 'f', which was destroyed") != std::string::npos);
}

TEST_CASE("the arena gives back the buffers later realizations do not reuse") {
    Var x("x"), y("y");
    Func big("big"), out("out");
    big(x, y) = x * y;
    out(x, y) = big(x, y) + big(x + 1, y);
    big.compute_root();
    Buffer<int> large(1024, 1024);
    out.realize(large);
    PipelineContents &p = compiled(out);
    CHECK(p.arena_bytes() >= 1025 * 1024 * 4);
    Buffer<int> small(16, 16);
    for (int i = 0; i < Pipeline::arena_keep_calls; i++) out.realize(small);
    INFO("held after small realizations: " << p.arena_bytes() << " bytes");
    CHECK(p.arena_bytes() > 0);             // the small intermediate is kept for reuse
    CHECK(p.arena_bytes() < 64 * 1024);     // the large one went back
    CHECK(small(3, 4) == 3 * 4 + 4 * 4);
    out.release_memory();
    CHECK(p.arena_bytes() == 0);
    out.realize(small);
    CHECK(small(15, 2) == 15 * 2 + 16 * 2);
}
