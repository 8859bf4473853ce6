// Wrappers (Func::in, ImageParam::in) and clones (Func::clone_in) at random: random stencil
// pipelines, some stages with updates, whose calls are redirected through clones (of clones
// too) and per-consumer, global and chained wrappers of stages, clones and the input, every
// Func placed inline, at the root or at a loop of the tiled output (each no deeper than
// anything that may read it), some vectorized or split, stored at the root where no parallel
// loop lies between. Every case is a valid Halide program: the output must equal the reference
// evaluator's over an output region at a random (often negative) position whose size the tiles
// do not divide. HALO_WRAPPER_FUZZ_SEED picks others.
#include <cstdlib>
#include <functional>
#include <map>
#include <random>

#include "TestUtil.h"

using namespace halo;

namespace {

class RandomWrappedPipeline {
public:
    explicit RandomWrappedPipeline(unsigned seed) : rng_(seed) {}

    // Builds the pipeline and its schedule; returns the output. The log describes both.
    Func build() {
        const int stages = 2 + pick(4);
        Buffer<int> image = halo_test::random_image<int>({40, 30}, unsigned(rng_()), -100, 100);
        image.set_min(-3 + pick(5), 2 - pick(5));
        input_.set(image);
        const int x0 = image.dim(0).min(), y0 = image.dim(1).min();
        for (int s = 0; s < stages; s++) {
            Node n;
            n.f = Func("s" + std::to_string(s));
            const int reads = s == 0 ? 1 : 1 + pick(2);
            Expr value;
            for (int k = 0; k < reads; k++) {
                int from = s == 0 ? -1 : pick(s + 1) - 1;  // -1: the input
                Expr read = read_of(from, x0, y0);
                if (from >= 0) nodes_[from].consumers.push_back(s);
                else input_consumers_.push_back(s);
                n.reads.push_back(from);
                value = value.defined() ? combine(value, read) : read;
            }
            n.f(x_, y_) = value;
            log_ << n.f.name() << "(x, y) = " << value << "\n";
            if (s > 0 && s < stages - 1 && pick(3) == 0) {
                // An update reading an earlier stage over an RDom, or itself at its own point.
                // (Not of the output: Funcs placed in its tiles would be used outside them.)
                int from = pick(s);
                RDom r(0, 1 + pick(3), n.f.name() + "_r");
                Expr upd = pick(2) ? n.f(x_, y_) + nodes_[from].f(x_ + r.x, y_) : n.f(x_, y_) * 2 - nodes_[from].f(x_, y_ - 1);
                n.f(x_, y_) = upd;
                nodes_[from].consumers.push_back(s);
                n.reads.push_back(from);
                n.has_update = true;
                log_ << n.f.name() << "(x, y) = " << upd << "\n";
            }
            nodes_.push_back(n);
        }
        make_clones();
        make_wrappers();
        schedule();
        return nodes_[stages - 1].f;  // (the wrappers follow the stages)
    }

    std::string log() const { return log_.str(); }
    int pick(int n) { return int(rng_() % unsigned(n)); }

private:
    struct Node {
        Func f;
        std::vector<int> reads;      // stages it reads (-1: the input)
        std::vector<int> consumers;  // stages that read it (repeats allowed)
        bool has_update = false;
        bool is_wrapper = false;
        bool vars_are_x_y = true;  // an input wrapper's Vars are _0, _1
        // The Funcs that may read it (conservatively: its consumers and its wrappers, by
        // index into nodes_), and its placement.
        std::vector<int> readers;
        int level = -1;  // effective loop level: 0 root ... kLevels - 1 the output's innermost
    };

    Expr read_of(int from, int x0, int y0) {
        int dx = pick(5) - 2, dy = pick(5) - 2;
        if (from < 0) {
            return input_(clamp(x_ + dx, x0, x0 + 39), clamp(y_ + dy, y0, y0 + 29));
        }
        return nodes_[from].f(x_ + dx, y_ + dy);
    }

    Expr combine(const Expr &a, const Expr &b) {
        switch (pick(4)) {
        case 0: return a + b;
        case 1: return a - b;
        case 2: return max(a, b);
        default: return (a * 3 + b) / 4;
        }
    }

    // Random clones (Func::clone_in) of stages or of clones, for one of their consumers. A clone
    // reads what its original reads, so it becomes a consumer of those (before the wrappers are
    // made: they may be made for it, and a global wrapper counts it among its readers).
    void make_clones() {
        const int output = int(nodes_.size()) - 1;
        const int clones = pick(3);
        for (int k = 0; k < clones; k++) {
            const int from = pick(int(nodes_.size()));
            if (from == output || nodes_[from].consumers.empty()) continue;
            const int c = nodes_[from].consumers[pick(int(nodes_[from].consumers.size()))];
            log_ << nodes_[from].f.name() << ".clone_in(" << nodes_[c].f.name() << ")\n";
            Func clone = nodes_[from].f.clone_in(nodes_[c].f);
            bool known = false;
            for (auto &n : nodes_) known |= n.f.function() == clone.function();
            if (known) continue;  // asked again
            Node n;
            n.f = clone;
            n.is_wrapper = true;  // (not one of the stages)
            n.reads = nodes_[from].reads;
            n.has_update = nodes_[from].has_update;
            n.consumers = {c};
            const int index = int(nodes_.size());
            for (int r : n.reads) {
                if (r >= 0) nodes_[r].consumers.push_back(index);
                else input_consumers_.push_back(index);
            }
            nodes_.push_back(n);
        }
    }

    // Random wrappers: of a stage for one consumer (sometimes wrapped again for it), global
    // ones, and of the input. Each wrapper's readers are recorded.
    void make_wrappers() {
        const int stages = int(nodes_.size());
        for (int s = 0; s < stages; s++) nodes_[s].readers = nodes_[s].consumers;
        const int wrappers = pick(4);
        for (int k = 0; k < wrappers; k++) {
            const int from = pick(stages) - 1;  // -1: the input
            // (a copy: adding nodes moves nodes_)
            const std::vector<int> consumers = from < 0 ? input_consumers_ : nodes_[from].consumers;
            if (consumers.empty()) continue;
            const std::string of = from < 0 ? "input" : nodes_[from].f.name();
            int w;
            if (pick(3) == 0) {
                log_ << of << ".in()\n";
                // Whoever reads the wrapped Func may read it instead.
                w = wrapper_node(from < 0 ? input_.in() : nodes_[from].f.in(), from >= 0, consumers);
            } else {
                int c = consumers[pick(int(consumers.size()))];
                log_ << of << ".in(" << nodes_[c].f.name() << ")\n";
                w = wrapper_node(from < 0 ? input_.in(nodes_[c].f) : nodes_[from].f.in(nodes_[c].f), from >= 0, {c});
                if (from >= 0 && pick(3) == 0) {
                    // Wrapped again for the same consumer: c reads the last of the chain.
                    log_ << nodes_[w].f.name() << ".in(" << nodes_[c].f.name() << ")\n";
                    int w2 = wrapper_node(nodes_[w].f.in(nodes_[c].f), true, {c});
                    nodes_[w].readers.push_back(w2);
                }
            }
            if (from >= 0) nodes_[from].readers.push_back(w);
        }
    }

    // The node of wrapper f (asked for twice, a wrapper is the same Func: one node), with
    // `readers` added to its readers.
    int wrapper_node(const Func &f, bool vars_are_x_y, const std::vector<int> &readers) {
        int index = -1;
        for (int i = 0; i < int(nodes_.size()); i++) {
            if (nodes_[i].f.function() == f.function()) index = i;
        }
        if (index < 0) {
            Node n;
            n.f = f;
            n.is_wrapper = true;
            n.vars_are_x_y = vars_are_x_y;
            nodes_.push_back(n);
            index = int(nodes_.size()) - 1;
        }
        nodes_[index].readers.insert(nodes_[index].readers.end(), readers.begin(), readers.end());
        return index;
    }

    // The output is tiled (loops yo, xo, yi, xi from the outside in, levels 1 to 4); every other
    // Func is placed from the output backwards, no deeper than the shallowest of its readers.
    void schedule() {
        Func out = nodes_[stages_count() - 1].f;
        const int tw = 2 + pick(7), th = 2 + pick(5);
        out.tile(x_, y_, xo_, yo_, xi_, yi_, tw, th, TailStrategy::GuardWithIf);
        log_ << out.name() << ".tile(x, y, xo, yo, xi, yi, " << tw << ", " << th << ")";
        innermost_ = kLevels - 1;
        if (pick(3) == 0) {
            out.vectorize(xi_);
            log_ << ".vectorize(xi)";
            innermost_ = kLevels - 2;  // nothing is computed inside a vectorized loop
        }
        if (pick(3) == 0) {
            out.parallel(yo_);
            log_ << ".parallel(yo)";
            parallel_ = true;
        }
        log_ << "\n";
        nodes_[stages_count() - 1].level = kLevels - 1;
        for (int i = 0; i < int(nodes_.size()); i++) place(i);
    }

    int stages_count() const {
        int n = 0;
        for (auto &node : nodes_) n += !node.is_wrapper;
        return n;
    }

    // Places node i (after its readers); returns its effective level.
    int place(int i) {
        Node &node = nodes_[i];  // (nodes_ does not grow while the Funcs are placed)
        if (node.level >= 0) return node.level;
        int shallowest = kLevels - 1;
        for (int r : node.readers) shallowest = std::min(shallowest, place(r));
        const int choice = pick(4);
        if (choice == 0 && !node.has_update) {
            node.level = shallowest;  // inline: computed wherever its readers are
            log_ << node.f.name() << ": inline\n";
            return node.level;
        }
        int level = choice == 1 ? 0 : pick(std::min(shallowest, innermost_) + 1);
        static const char *names[kLevels] = {"root", "yo", "xo", "yi", "xi"};
        if (level == 0) {
            node.f.compute_root();
        } else {
            const Var *loops[kLevels] = {nullptr, &yo_, &xo_, &yi_, &xi_};
            node.f.compute_at(nodes_[stages_count() - 1].f, *loops[level]);
            // Stored at the root (a sliding window or a hoisted buffer) unless a parallel loop
            // lies between.
            if (!parallel_ && pick(3) == 0) {
                node.f.store_root();
                log_ << node.f.name() << ".store_root()\n";
            }
        }
        log_ << node.f.name() << ".compute_at(" << names[level] << ")\n";
        Var vx = node.vars_are_x_y ? x_ : Var("_0"), vy = node.vars_are_x_y ? y_ : Var("_1");
        switch (pick(4)) {
        case 0: {
            int w = 4 << pick(2);
            node.f.vectorize(vx, w, pick(2) || !node.vars_are_x_y || node.has_update ? TailStrategy::GuardWithIf : TailStrategy::RoundUp);
            log_ << "  .vectorize(" << vx.name() << ", " << w << ")\n";
            break;
        }
        case 1: {
            int h = 2 + pick(3);
            node.f.split(vy, Var("py_o"), Var("py_i"), h, TailStrategy::GuardWithIf);
            log_ << "  .split(" << vy.name() << ", py_o, py_i, " << h << ")\n";
            break;
        }
        default: break;
        }
        node.level = level;
        return level;
    }

    static constexpr int kLevels = 5;
    std::mt19937 rng_;
    std::ostringstream log_;
    ImageParam input_{Int(32), 2, "input"};
    std::vector<int> input_consumers_;
    std::vector<Node> nodes_;
    Var x_{"x"}, y_{"y"}, xo_{"xo"}, yo_{"yo"}, xi_{"xi"}, yi_{"yi"};
    int innermost_ = kLevels - 1;
    bool parallel_ = false;
};

}  // namespace

TEST_CASE("random pipelines read through random wrappers and equal the reference") {
    const char *env = std::getenv("HALO_WRAPPER_FUZZ_SEED");
    const unsigned first = env ? unsigned(std::strtoul(env, nullptr, 10)) : 20261201;
    const char *cases_env = std::getenv("HALO_WRAPPER_FUZZ_CASES");
    const int cases = cases_env ? std::atoi(cases_env) : 60;
    for (int i = 0; i < cases; i++) {
        const unsigned seed = first + unsigned(i);
        RandomWrappedPipeline gen(seed);
        Func out = gen.build();
        const int w = 1 + gen.pick(37), h = 1 + gen.pick(29);
        Buffer<int> got = halo_test::int_buffer_at(w, h, gen.pick(40) - 25, gen.pick(40) - 20);
        INFO("seed " << seed << ", output " << w << "x" << h << " at (" << got.dim(0).min() << ", " << got.dim(1).min()
                     << ")\n" << gen.log());
        std::string error;
        try {
            out.realize(got);
        } catch (const std::exception &e) {
            error = e.what();
        }
        REQUIRE(error == "");
        CHECK(halo_test::compare(got, halo_test::reference_over(out, got)) == "");
    }
}
