// The algorithm half of the typed pipeline generator (TypedPipeline.h): which stages there are,
// their value types, and what they compute.
#include "TypedPipeline.h"

#include <algorithm>

#include "TestUtil.h"

using namespace halo;

namespace halo_fuzz {

namespace {

// Every int32 and float value stays within [-kLimit, kLimit] (see TypedPipeline.h).
constexpr int kLimit = 1 << 18;

bool keeps_in_range(Type w) { return w.is_float() || w == Int(32); }

}  // namespace

TypedPipeline::TypedPipeline(unsigned seed) : rng_(seed), input_(std::vector<int>{21, 17, 4}, "input") {
    channels = 3 + rand(2);
    input_ = Buffer<uint8_t>(std::vector<int>{21, 17, channels}, "input");
    input_.set_min({-2, 1, 0});
    halo_test::fill_random(input_, 0, 255, seed);
    // One seed in three keeps the same values interleaved (channels innermost in memory): reads
    // then stride by the channel count in x. (From the seed, not rng_: a seed's other choices stay.)
    if ((seed / 11) % 3 == 1) {
        Buffer<uint8_t> cxy(std::vector<int>{channels, 21, 17}, "input");
        cxy.set_min({0, -2, 1});
        Buffer<uint8_t> interleaved = cxy.transposed(0, 1).transposed(1, 2);
        interleaved.copy_from(input_);
        input_ = interleaved;
        interleaved_input_ = true;
    }
}

std::string TypedPipeline::type_name(Type t) {
    std::ostringstream s;
    s << t;
    return s.str();
}

Type TypedPipeline::random_type() {
    static const Type types[] = {UInt(8), Int(8), UInt(16), Int(16), Int(32), UInt(32), Float(32), Float(64)};
    return types[rand(8)];
}

Expr TypedPipeline::read(int s, Expr x, Expr y, Expr c, Type w) {
    Expr v = cast(w, stages_[s].f(x, y, c));
    if (keeps_in_range(w)) v = clamp(v, -kLimit, kLimit);
    return v;
}

Expr TypedPipeline::small(int s, Type w) {
    Expr v = cast(w, stages_[s].f(x_, y_, c_));
    if (w.is_float()) return floor(clamp(v, -15, 15));
    return v % 16 - 8;
}

Expr TypedPipeline::finish(Expr v, Type t) {
    if (keeps_in_range(v.type())) v = clamp(v, -kLimit, kLimit);
    // Floats keep one fractional bit: products with a factor of at most 16 stay exact.
    if (v.type().is_float()) v = floor(v * 2) * 0.5f;
    return cast(t, v);
}

void TypedPipeline::build(int n) {
    Func in;
    std::string bc;
    switch (rand(4)) {
    case 0: in = BoundaryConditions::repeat_edge(input_), bc = "repeat_edge"; break;
    case 1: in = BoundaryConditions::constant_exterior(input_, Expr(uint8_t(7))), bc = "constant_exterior(7)"; break;
    case 2: in = BoundaryConditions::mirror_image(input_), bc = "mirror_image"; break;
    default: in = BoundaryConditions::mirror_interior(input_), bc = "mirror_interior"; break;
    }
    stages_.push_back({in, UInt(8), {}});
    stages_.back().is_boundary = true;
    log_ << "input: uint8 21x17x" << channels << " at (-2, 1, 0)" << (interleaved_input_ ? ", interleaved" : "") << "; " << in.name() << " = " << bc << "(input)\n";
    for (int i = 1; i <= n; i++) {
        // Stages read earlier ones other than lookup tables (read only by their own consumer).
        std::vector<int> readable;
        for (int j = 0; j < int(stages_.size()); j++) {
            if (!stages_[j].is_lut) readable.push_back(j);
        }
        int a = readable[size_t(rand(int(readable.size())))], b = readable[size_t(rand(int(readable.size())))];
        TypedStage st{Func("t" + std::to_string(i)), random_type(), {}};
        switch (rand(12)) {
        case 0:
        case 1:
        case 2: add_pointwise(st, a, b); break;
        case 3:
        case 4: add_stencil(st, a, b); break;
        case 5: add_channel_mix(st, a); break;
        case 6: add_convolution(st, a); break;
        case 7: add_resample(st, a); break;
        case 8: add_lookup(st, a); break;  // pushes the table first
        case 9: add_scan(st, a); break;
        case 10: add_boundary(st, a); break;
        default: add_pointwise(st, a, b); break;
        }
        stages_.push_back(st);
    }
    // An output may not be written outside the region asked for (a scan's update does), nor
    // be a boundary condition's Func (named by the library): such a last stage gets a consumer.
    const TypedStage &last = stages_.back();
    if (last.scan_in_y || last.is_boundary) {
        TypedStage st{Func("out"), random_type(), {int(stages_.size()) - 1}};
        Type w = st.type.is_float() ? st.type : Int(32);
        st.f(x_, y_, c_) = finish(read(int(stages_.size()) - 1, x_, y_, c_, w) + 1, st.type);
        log_ << "out(x, y, c) = " << type_name(st.type) << "(" << last.f.name() << "(x, y, c) + 1)\n";
        stages_.push_back(st);
    }
    main_ = int(stages_.size()) - 1;
    choose_second_output();
}

void TypedPipeline::add_pointwise(TypedStage &st, int a, int b) {
    Type t = st.type;
    // The type the arithmetic is done in: the stage's own (narrow types wrap) or a wider one.
    Type w = t.is_float() || t == UInt(32) || t == Int(32) || coin() ? t : Int(32);
    Expr A = read(a, x_, y_, c_, w), B = read(b, x_, y_, c_, w);
    std::string An = stages_[a].f.name(), Bn = stages_[b].f.name(), text;
    Expr v;
    switch (rand(11)) {
    case 0: v = A + B, text = "A + B"; break;
    case 1: v = A - B * small(b, w), text = "A - B * small(B)"; break;
    case 2: v = A * small(b, w) + B, text = "A * small(B) + B"; break;
    case 3:
        v = w.is_float() ? floor((min(A, B) + max(A, B)) / 3) : (min(A, B) + max(A, B)) / 3;
        text = "(min(A, B) + max(A, B)) / 3";
        break;
    case 4: v = select(A > B, A - B, B * 2), text = "select(A > B, A - B, B * 2)"; break;
    case 5: v = cast(w, absd(A, B)), text = "absd(A, B)"; break;
    case 6:
        v = w.is_float() ? floor(A / (abs(B) + 1)) : A / B + A % B;
        text = w.is_float() ? "floor(A / (abs(B) + 1))" : "A / B + A % B";
        break;
    case 7:
        v = w.is_float() ? floor(sqrt(abs(A))) + B : (A ^ B) >> 1;
        text = w.is_float() ? "floor(sqrt(abs(A))) + B" : "(A ^ B) >> 1";
        break;
    case 8: v = clamp(A, B - 10, B + 10), text = "clamp(A, B - 10, B + 10)"; break;
    case 9: {
        // Halide's implicit coercion between the two stages' own types, then the stage's.
        Expr raw = stages_[a].f(x_, y_, c_) + stages_[b].f(x_, y_, c_);
        if (raw.type().is_float()) raw = clamp(raw, -kLimit, kLimit);
        v = cast(w, raw);
        text = "A + B in their own types (" + type_name(raw.type()) + ")";
        break;
    }
    default:
        v = select(A < B, A, B) + select(A % 4 == 1, Expr(cast(w, 3)), B);
        text = "select(A < B, A, B) + select(A % 4 == 1, 3, B)";
        if (w.is_float()) v = A * 0.5f + B, text = "A * 0.5 + B";
        break;
    }
    st.f(x_, y_, c_) = finish(v, t);
    st.inputs = {a, b};
    log_ << st.f.name() << "(x, y, c) = " << type_name(t) << "(" << text << ") in " << type_name(w) << "  [A = " << An
         << ", B = " << Bn << "]\n";
}

void TypedPipeline::add_stencil(TypedStage &st, int a, int b) {
    Type t = st.type;
    Type w = t.is_float() || t.bits() == 32 || coin() ? t : Int(32);
    std::string An = stages_[a].f.name();
    std::ostringstream text;
    Expr v;
    if (rand(3) == 0) {
        // An inline reduction: its hidden Func is computed inside this stage.
        RDom r(-1, 3, st.f.name() + "_r");
        if (coin()) {
            v = sum(read(a, x_ + r.x, y_, c_, w) * cast(w, r.x + 2));
            text << "sum(A(x + r, y, c) * (r + 2)), r in [-1, 1]";
        } else {
            v = maximum(read(a, x_, y_ + r.x, c_, w)) - read(b, x_, y_, c_, w);
            text << "maximum(A(x, y + r, c)) - B, r in [-1, 1]";
            st.inputs.push_back(b);
        }
    } else {
        int taps = 2 + rand(3);
        for (int k = 0; k < taps; k++) {
            int dx = rand(5) - 2, dy = rand(5) - 2, weight = 1 + rand(3);
            bool minus = k > 0 && coin();
            Expr term = read(a, x_ + dx, y_ + dy, c_, w) * weight;
            v = !v.defined() ? term : minus ? v - term : v + term;
            text << (k == 0 ? "" : minus ? " - " : " + ") << weight << " * A(x" << (dx < 0 ? "" : "+") << dx << ", y"
                 << (dy < 0 ? "" : "+") << dy << ", c)";
        }
    }
    st.f(x_, y_, c_) = finish(v, t);
    st.inputs.push_back(a);
    log_ << st.f.name() << "(x, y, c) = " << type_name(t) << "(" << text.str() << ") in " << type_name(w) << "  [A = " << An
         << (st.inputs.size() > 1 ? ", B = " + stages_[b].f.name() : "") << "]\n";
}

// A 1x1 convolution across channels: an update over r in [0, channels), or an inline sum().
void TypedPipeline::add_channel_mix(TypedStage &st, int a) {
    Type t = st.type;
    Type w = t.is_float() || t.bits() == 32 || coin() ? t : Int(32);
    RDom r(0, channels, st.f.name() + "_r");
    Expr weight = cast(w, (c_ * 3 + r.x * 5) % 7 - 3);
    std::string An = stages_[a].f.name();
    st.inputs = {a};
    if (coin()) {
        st.f(x_, y_, c_) = finish(sum(read(a, x_, y_, r.x, w) * weight), t);
        log_ << st.f.name() << "(x, y, c) = " << type_name(t) << "(sum(A(x, y, r) * ((3c + 5r) % 7 - 3))) in "
             << type_name(w) << ", r in [0, " << channels - 1 << "]  [A = " << An << "]\n";
        return;
    }
    st.f(x_, y_, c_) = finish(cast(w, c_ * 2 + 1), t);
    st.f(x_, y_, c_) = finish(cast(w, st.f(x_, y_, c_)) + read(a, x_, y_, r.x, w) * weight, t);
    st.has_updates = true;
    st.rvars = {r.x};
    log_ << st.f.name() << "(x, y, c) = " << type_name(t) << "(2c + 1); " << st.f.name() << "(x, y, c) = " << type_name(t)
         << "(" << st.f.name() << " + A(x, y, r) * ((3c + 5r) % 7 - 3)) in " << type_name(w) << ", r in [0, "
         << channels - 1 << "]  [A = " << An << "]\n";
}

// A 3x3 x channels convolution as an update definition, each step clamped and cast.
void TypedPipeline::add_convolution(TypedStage &st, int a) {
    Type t = st.type;
    Type w = t.is_float() || t.bits() == 32 ? t : Int(32);
    RDom r(-1, 3, -1, 3, 0, channels, st.f.name() + "_r");
    Expr weight = cast(w, (c_ + r.x * 2 + r.y * 3 + r.z * 5 + 40) % 7 - 3);
    st.f(x_, y_, c_) = finish(cast(w, c_), t);
    st.f(x_, y_, c_) = finish(cast(w, st.f(x_, y_, c_)) + read(a, x_ + r.x, y_ + r.y, r.z, w) * weight, t);
    st.inputs = {a};
    st.has_updates = true;
    st.rvars = {r.x, r.y, r.z};
    log_ << st.f.name() << "(x, y, c) = " << type_name(t) << "(c); " << st.f.name() << "(x, y, c) += A(x + r.x, y + r.y, r.z) * weight, "
         << "3x3x" << channels << " in " << type_name(w) << "  [A = " << stages_[a].f.name() << "]\n";
}

void TypedPipeline::add_resample(TypedStage &st, int a) {
    Type t = st.type;
    Type w = t.is_float() || t.bits() == 32 ? t : Int(32);
    std::string An = stages_[a].f.name(), text;
    Expr v;
    if (downsamples_ < 2 && coin()) {
        downsamples_++;
        if (coin()) {
            v = max(max(read(a, 2 * x_, 2 * y_, c_, w), read(a, 2 * x_ + 1, 2 * y_, c_, w)),
                    max(read(a, 2 * x_, 2 * y_ + 1, c_, w), read(a, 2 * x_ + 1, 2 * y_ + 1, c_, w)));
            text = "2x2 max pool of A";
        } else {
            v = read(a, 2 * x_ - 1, y_, c_, w) + read(a, 2 * x_, y_, c_, w) * 2 + read(a, 2 * x_ + 1, y_, c_, w);
            text = "A(2x - 1, y, c) + 2 A(2x, y, c) + A(2x + 1, y, c)";
        }
    } else {
        v = read(a, x_ / 2, y_ / 2, c_, w) + read(a, (x_ + 1) / 2, y_, c_, w);
        text = "A(x / 2, y / 2, c) + A((x + 1) / 2, y, c)";
    }
    st.f(x_, y_, c_) = finish(v, t);
    st.inputs = {a};
    log_ << st.f.name() << "(x, y, c) = " << type_name(t) << "(" << text << ") in " << type_name(w) << "  [A = " << An << "]\n";
}

// A lookup table lut(i) (a 1-D Func, a stage of its own), read at a uint8 index from A.
void TypedPipeline::add_lookup(TypedStage &st, int a) {
    Type t = st.type;
    TypedStage lut{Func(st.f.name() + "_lut"), random_type(), {}};
    lut.is_lut = true;
    Type lw = lut.type.is_float() ? lut.type : Int(32);
    lut.f(i_) = finish(cast(lw, (i_ * 37 + 11) % 256 - 100) * 3, lut.type);
    log_ << lut.f.name() << "(i) = " << type_name(lut.type) << "(((37i + 11) % 256 - 100) * 3)\n";
    stages_.push_back(lut);
    int l = int(stages_.size()) - 1;
    Type w = t.is_float() ? t : Int(32);
    Expr index = cast<int32_t>(cast<uint8_t>(stages_[a].f(x_, y_, c_)));
    std::string text = "lut(int32(uint8(A)))";
    if (coin()) index = index / 4 + c_, text = "lut(int32(uint8(A)) / 4 + c)";
    Expr v = cast(w, stages_[l].f(index)) + read(a, x_ + 1, y_, c_, w);
    st.f(x_, y_, c_) = finish(v, t);
    st.inputs = {a, l};
    log_ << st.f.name() << "(x, y, c) = " << type_name(t) << "(" << text << " + A(x + 1, y, c)) in " << type_name(w)
         << "  [A = " << stages_[a].f.name() << "]\n";
}

// A scan down the rows: f(x, r, c) = f(x, r - 1, c) + A(x, r, c) over r in [lo, lo + n).
void TypedPipeline::add_scan(TypedStage &st, int a) {
    Type t = st.type;
    Type w = t.is_float() || t.bits() == 32 || coin() ? t : Int(32);
    int lo = rand(9) - 4, n = 1 + rand(12);
    RDom r(lo, n, st.f.name() + "_r");
    st.f(x_, y_, c_) = finish(read(a, x_, y_, c_, w), t);
    st.f(x_, r.x, c_) = finish(cast(w, st.f(x_, r.x - 1, c_)) + read(a, x_, r.x, c_, w) / 2, t);
    st.inputs = {a};
    st.has_updates = true;
    st.scan_in_y = true;
    st.rvars = {r.x};
    log_ << st.f.name() << "(x, y, c) = A(x, y, c); " << st.f.name() << "(x, r, c) = " << type_name(t) << "(" << st.f.name()
         << "(x, r - 1, c) + A(x, r, c) / 2) in " << type_name(w) << ", r in [" << lo << ", " << lo + n - 1
         << "]  [A = " << stages_[a].f.name() << "]\n";
}

// A boundary condition on an intermediate Func over a window of x and y (its type is A's).
void TypedPipeline::add_boundary(TypedStage &st, int a) {
    int bx = rand(7) - 4, by = rand(7) - 4, bw = 3 + rand(18), bh = 3 + rand(14);
    BoundaryConditions::Region region = {{bx, bw}, {by, bh}, {0, channels}};
    Func A = stages_[a].f;
    std::string text;
    switch (rand(3)) {
    case 0: st.f = BoundaryConditions::repeat_edge(A, region), text = "repeat_edge"; break;
    case 1: st.f = BoundaryConditions::mirror_interior(A, region), text = "mirror_interior"; break;
    default:
        st.f = BoundaryConditions::constant_exterior(A, cast(stages_[a].type, 5), region);
        text = "constant_exterior(5)";
        break;
    }
    st.type = stages_[a].type;
    st.inputs = {a};
    st.is_boundary = true;
    log_ << st.f.name() << " = " << text << "(" << A.name() << ", x in [" << bx << ", " << bx + bw - 1 << "], y in [" << by
         << ", " << by + bh - 1 << "])\n";
}

// One case in three realizes a second output of the same size: an earlier stage itself (then
// computed at the root, as every output is) or a conversion of one to another type.
void TypedPipeline::choose_second_output() {
    if (rand(3) != 0) return;
    std::vector<int> candidates;
    for (int s = 1; s + 1 < int(stages_.size()); s++) {
        if (!stages_[s].is_lut && !stages_[s].scan_in_y && !stages_[s].is_boundary) candidates.push_back(s);
    }
    if (candidates.empty() || coin()) {
        int s = candidates.empty() ? main_ : candidates[size_t(rand(int(candidates.size())))];
        TypedStage st{Func("second"), random_type(), {s}};
        st.is_second_output = true;
        Type w = st.type.is_float() ? st.type : Int(32);
        st.f(x_, y_, c_) = finish(read(s, x_, y_, c_, w) * 3 - 1, st.type);
        log_ << "second output: second(x, y, c) = " << type_name(st.type) << "(" << stages_[s].f.name() << "(x, y, c) * 3 - 1)\n";
        stages_.push_back(st);
        second_ = int(stages_.size()) - 1;
        return;
    }
    second_ = candidates[size_t(rand(int(candidates.size())))];
    stages_[size_t(second_)].is_second_output = true;
    log_ << "second output: " << stages_[size_t(second_)].f.name() << " itself\n";
}

std::vector<int> TypedPipeline::consumers_of(int s) const {
    std::vector<int> c;
    for (size_t j = 0; j < stages_.size(); j++) {
        if (!reachable_[j]) continue;
        if (std::find(stages_[j].inputs.begin(), stages_[j].inputs.end(), s) != stages_[j].inputs.end()) c.push_back(int(j));
    }
    return c;
}

}  // namespace halo_fuzz
