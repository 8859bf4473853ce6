#include "dsl/Halo.h"
#include <cstdio>
using namespace halo;
int main() {
    try {
    Var x("x"), y("y");
    Buffer<int> in(20, 10);
    in.for_each_value([](const std::vector<int>& c) { return c[0] * 3 + c[1] * 7; });
    Func blurx("blurx"), out("out");
    blurx(x, y) = in(x, y) + in(x + 1, y) + in(x + 2, y);
    out(x, y) = (blurx(x, y) + blurx(x, y + 1)) / 2;
    blurx.compute_root();
    std::printf("%s\n", out.lowered_stmt().c_str());
    Buffer<int> r = out.realize({10, 5});
    int bad = 0;
    for (int yy = 0; yy < 5; yy++) for (int xx = 0; xx < 10; xx++) {
        int bx0 = in(xx,yy)+in(xx+1,yy)+in(xx+2,yy), bx1 = in(xx,yy+1)+in(xx+1,yy+1)+in(xx+2,yy+1);
        int e = (bx0 + bx1) / 2;
        if (r(xx, yy) != e) { bad++; }
    }
    std::printf("bad=%d\n", bad);
    Buffer<int> big = out.realize({30, 5});
    } catch (std::exception &e) { std::printf("exception: %s\n", e.what()); }
}
