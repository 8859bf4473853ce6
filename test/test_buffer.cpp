// Buffer as Halide users write it: wrapping memory, accessors, element loops, views.
#include <numeric>

#include "TestUtil.h"

using namespace halo;
using halo_test::compile_error_of;
using halo_test::contains;

TEST_CASE("wrapping user memory in 1 to 4 dimensions") {
    std::vector<float> mem(2 * 3 * 4 * 5);
    std::iota(mem.begin(), mem.end(), 0.0f);
    Buffer<float> a(mem.data(), {16});
    Buffer<float> b(mem.data(), 6, 4);
    Buffer<float> c(mem.data(), {2, 3, 4});
    Buffer<float> d(mem.data(), 2, 3, 4, 5);
    CHECK(a.dimensions() == 1);
    CHECK(a(15) == 15.0f);
    CHECK(b(5, 3) == 23.0f);
    CHECK(c(1, 2, 3) == 1 + 2 * 2 + 3 * 6);
    CHECK(d(1, 2, 3, 4) == 1 + 2 * 2 + 3 * 6 + 4 * 24);
    CHECK(d.stride(3) == 24);
    halo_dimension_t shape[] = {{10, 4, 1, 0}, {-2, 3, 4, 0}};
    Buffer<float> e(mem.data(), 2, shape);
    CHECK(e.min(0) == 10);
    CHECK(e.extent(1) == 3);
    CHECK(e(13, 0) == 3 + 2 * 4);
    CHECK(e.left() == 10);
    CHECK(e.right() == 13);
    CHECK(e.top() == -2);
    CHECK(e.bottom() == 0);
}

TEST_CASE("for_each_element with int coordinates, a pointer, or a vector") {
    Buffer<int> b(5, 3);
    b.set_min(-2, 7);
    b.for_each_element([&](int x, int y) { b(x, y) = x * 100 + y; });
    CHECK(b(2, 9) == 209);
    int count = 0;
    b.for_each_element([&](const int *pos) { count += b(pos[0], pos[1]) == pos[0] * 100 + pos[1]; });
    CHECK(count == 15);
    int64_t sum = 0;
    b.for_each_element([&](const std::vector<int> &c) { sum += c[0]; });
    CHECK(sum == 3 * (-2 - 1 + 0 + 1 + 2));
    // As in Halide: more ints than dimensions get 0, fewer walk only the first dimensions.
    int calls = 0, nonzero_extra = 0;
    b.for_each_element([&](int x, int y, int z) {
        calls++;
        nonzero_extra += z != 0 || !b.contains(x, y);
    });
    CHECK(calls == 15);
    CHECK(nonzero_extra == 0);
    std::vector<int> xs;
    b.for_each_element([&](int x) { xs.push_back(x); });
    CHECK(xs == std::vector<int>{-2, -1, 0, 1, 2});
}

TEST_CASE("for_each_value visits elements in storage order, for_each_element in dimension order") {
    // An interleaved 3 x 2 x 2 buffer: channels (dimension 2) are adjacent in memory.
    int storage[12] = {};
    halo_dimension_t shape[] = {{0, 3, 2}, {0, 2, 6}, {0, 2, 1}};
    Buffer<int> b(storage, 3, shape);
    int n = 0;
    b.for_each_value([&](int &v) { v = n++; });
    for (int i = 0; i < 12; i++) CHECK(storage[i] == i);
    std::vector<int> visited;
    b.for_each_element([&](int x, int y, int c) { visited.push_back(b(x, y, c)); });
    CHECK(visited == std::vector<int>{0, 2, 4, 6, 8, 10, 1, 3, 5, 7, 9, 11});
    b.for_each_value([](const std::vector<int> &c) { return 100 * c[2] + 10 * c[1] + c[0]; });
    CHECK(b(2, 1, 1) == 112);
    CHECK(storage[1] == 100);
}

TEST_CASE("for_each_value: Halide's form with other buffers, and Halo's from coordinates") {
    Buffer<float> a(4, 4), b(4, 4);
    a.for_each_value([](const std::vector<int> &c) { return float(c[0] + c[1]); });
    b.fill(2.0f);
    a.for_each_value([](float &v, float &w) { v = v * w; }, b);
    CHECK(a(3, 2) == 10.0f);
    a.for_each_value([](float &v) { v += 1; });
    CHECK(a(0, 0) == 1.0f);
}

TEST_CASE("cropped and sliced views share memory, translate moves coordinates") {
    Buffer<int> b(8, 6);
    b.for_each_element([&](int x, int y) { b(x, y) = x + 10 * y; });
    Buffer<int> c = b.cropped(0, 2, 3).cropped(1, 1, 4);
    CHECK(c.dim(0).min() == 2);
    CHECK(c.dim(0).extent() == 3);
    CHECK(c(4, 4) == 44);
    c(3, 2) = -1;
    CHECK(b(3, 2) == -1);  // the same memory
    Buffer<int> row = b.sliced(1, 5);
    CHECK(row.dimensions() == 1);
    CHECK(row(7) == 57);
    CHECK(b.contains(7, 5));
    CHECK(!b.contains(8, 5));
    Buffer<int> t = b.translated(0, 100);
    CHECK(t(107, 5) == 57);
    CHECK(b.dim(0).min() == 0);  // translated() leaves b alone
    b.translate({-1, -1});
    CHECK(b(6, 4) == 57);
    // crop in place changes the shape every handle sees.
    Buffer<int> same = b;
    b.crop(1, 0, 2);
    CHECK(same.dim(1).extent() == 2);
    std::string msg = compile_error_of([&] { b.cropped(0, 5, 10); });
    CHECK(contains(msg, "is not inside dimension 0's [-1, 6]"));
}

TEST_CASE("a cropped view keeps an owned allocation alive and is a valid pipeline input and output") {
    Buffer<int> view;
    {
        Buffer<int> owner(10, 10);
        owner.for_each_element([&](int x, int y) { owner(x, y) = x * y; });
        view = owner.cropped(0, 3, 5).cropped(1, 2, 6);
    }
    CHECK(view(7, 7) == 49);  // owner is gone; the storage is not
    Var x("x"), y("y");
    Func f("f");
    f(x, y) = view(x, y) + 1;
    Buffer<int> big(20, 20);
    big.fill(0);
    Buffer<int> out = big.cropped(0, 3, 5).cropped(1, 2, 6);
    f.realize(out);  // written through the view, at the view's coordinates
    CHECK(big(7, 7) == 50);
    CHECK(big(2, 7) == 0);
    CHECK(big(8, 7) == 0);
}

TEST_CASE("transposed swaps two dimensions of the same memory, and an interleaved output works") {
    Buffer<int> cxy(3, 4, 2);  // channels innermost in memory
    cxy.set_min(0, 5, -1);
    cxy.for_each_element([&](int c, int x, int y) { cxy(c, x, y) = 100 * c + 10 * x + y; });
    Buffer<int> xyc = cxy.transposed(0, 1).transposed(1, 2);  // (x, y, c)
    CHECK(xyc.dim(0).min() == 5);
    CHECK(xyc.dim(0).extent() == 4);
    CHECK(xyc.dim(0).stride() == 3);
    CHECK(xyc.dim(2).stride() == 1);
    CHECK(xyc(7, 0, 2) == 270);
    CHECK(cxy.dim(0).extent() == 3);  // transposed() leaves cxy alone
    std::string msg = compile_error_of([&] { cxy.transposed(0, 3); });
    CHECK(contains(msg, "transposed(3, ...): it has 3 dimensions"));
    // An output written in the interleaved layout once dimension 0 may be strided.
    Var x("x"), y("y"), c("c");
    Func f("f");
    f(x, y, c) = x * 1000 + y * 10 + c;
    f.output_buffer().dim(0).set_stride(Expr());
    f.vectorize(x, 4);
    Buffer<int> out = Buffer<int>(3, 9, 5).transposed(0, 1).transposed(1, 2);
    f.realize(out);
    int bad = 0;
    out.for_each_element([&](int xx, int yy, int cc) { bad += out(xx, yy, cc) != xx * 1000 + yy * 10 + cc; });
    CHECK(bad == 0);
    Buffer<int> same = out;
    out.transpose(0, 2);
    CHECK(same.dim(0).extent() == 3);  // in place: every handle sees it
}

TEST_CASE("copy_from copies where the buffers overlap") {
    Buffer<int> a(6, 6), b(4, 4);
    a.fill(0);
    b.set_min(3, 3);
    b.fill(7);
    a.copy_from(b);
    CHECK(a(3, 3) == 7);
    CHECK(a(5, 5) == 7);
    CHECK(a(2, 3) == 0);
}

TEST_CASE("an undefined Buffer used as if it held one is a CompileError naming the method, not a crash") {
    const Buffer<> undefined_dynamic;
    Buffer<float> undefined_typed;
    CHECK(!undefined_dynamic.defined());
    std::string msg = halo_test::compile_error_of([&] { (void)undefined_dynamic.raw_buffer(); });
    CHECK(msg.find("Buffer::raw_buffer() of an undefined Buffer") != std::string::npos);
    msg = halo_test::compile_error_of([&] { (void)undefined_typed.width(); });
    CHECK(msg.find("Buffer::dimensions() of an undefined Buffer") != std::string::npos);
    msg = halo_test::compile_error_of([&] { (void)undefined_typed(1, 2); });
    CHECK(msg.find("of an undefined Buffer") != std::string::npos);
    msg = halo_test::compile_error_of([&] { (void)undefined_typed.data(); });
    CHECK(msg.find("Buffer::data() of an undefined Buffer") != std::string::npos);
    msg = halo_test::compile_error_of([&] { (void)undefined_typed.copy(); });
    CHECK(msg.find("Buffer::copy() of an undefined Buffer") != std::string::npos);
    msg = halo_test::compile_error_of([&] {
        Func f("f");
        Var x("x");
        f(x) = undefined_typed(x);
    });
    CHECK(msg.find("Buffer::operator()() of an undefined Buffer") != std::string::npos);
}
