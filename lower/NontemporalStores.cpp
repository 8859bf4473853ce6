#include "NontemporalStores.h"

#include <cstdlib>
#include <cstring>
#include <map>

#include "IREquality.h"
#include "Simplify.h"
#include "Substitute.h"
#include "dsl/Error.h"
#include "dsl/IROperator.h"

namespace halo {

namespace {

// The total size below which outputs keep ordinary stores (or -1: never stream).
int64_t min_streamed_bytes() {
    const char *env = std::getenv("HALO_NONTEMPORAL_MIN_BYTES");
    if (!env || !*env) return int64_t(16) << 20;
    if (std::strcmp(env, "off") == 0) return -1;
    char *end = nullptr;
    long long v = std::strtoll(env, &end, 10);
    user_assert(end && *end == 0 && v >= 0)
        << "HALO_NONTEMPORAL_MIN_BYTES=" << env << ": give a number of bytes (0 streams every output) or off";
    return v;
}

// A store fence: the streaming stores before it are ordered before every store after it.
// (A fence per loop of streaming stores cost more than the streaming saved in tiles 256 wide.)
Stmt store_fence() { return Evaluate::make(Call::make(Int(32), Call::store_fence, {}, Call::Intrinsic)); }

// The buffers some Load reads.
std::set<std::string> loaded_buffers(const Stmt &s) {
    struct Loads : IRVisitor {
        std::set<std::string> names;
        using IRVisitor::visit;
        void visit(const Load *op) override {
            names.insert(op->name);
            IRVisitor::visit(op);
        }
    } loads;
    s.accept(&loads);
    return loads.names;
}

// A store of one innermost loop that may stream: its buffer, element type, vector size in bytes,
// and the index of its first lane in the loop's first iteration.
struct Candidate {
    std::string buffer;
    Type element;
    int bytes;
    Expr first_index;
};

// Finds the stores of a loop body that may stream, and marks them (Stores are rebuilt with
// nontemporal set, in the same places). A loop with any other store to a streamed output keeps
// all its stores ordinary.
class MarkStreamingStores : public IRMutator {
public:
    MarkStreamingStores(const For &loop, const std::set<std::string> &streamable)
        : loop_(loop), streamable_(streamable) {}
    using IRMutator::mutate;
    using IRMutator::visit;
    std::vector<Candidate> candidates;
    bool refused = false;  // a store to a streamable output that cannot stream

private:
    const For &loop_;
    const std::set<std::string> &streamable_;
    std::vector<std::pair<std::string, Expr>> lets_;  // bound inside the loop, innermost last
    int vector_guards_ = 0;

    Stmt visit(const LetStmt *op) override {
        lets_.push_back({op->name, op->value});
        Stmt body = mutate(op->body);
        lets_.pop_back();
        return body.same_as(op->body) ? self(op) : LetStmt::make(op->name, op->value, body);
    }
    Stmt visit(const IfThenElse *op) override {
        bool vector = op->condition.type().is_vector();
        vector_guards_ += vector;
        Stmt s = IRMutator::visit(op);
        vector_guards_ -= vector;
        return s;
    }
    Stmt visit(const Store *op) override {
        if (!streamable_.count(op->name)) return self(op);
        Type t = op->value.type();
        int bytes = t.bytes() * t.lanes();
        const Ramp *ramp = op->index.as<Ramp>();
        const int64_t *stride = ramp ? as_const_int(ramp->stride) : nullptr;
        if (vector_guards_ > 0 || !ramp || !stride || *stride != 1 || t.lanes() < 2 || bytes < 16 || bytes > 64 ||
            (bytes & (bytes - 1)) != 0) {
            refused = true;
            return self(op);
        }
        // The first lane's index, with the lets bound inside the loop written out: it must move
        // by whole vectors per iteration (one, or several in an unrolled loop), so that an
        // aligned first store makes every one aligned.
        Expr base = ramp->base;
        for (auto it = lets_.rbegin(); it != lets_.rend(); ++it) base = substitute(it->first, it->second, base);
        Expr v = Variable::make(Int(32), loop_.name);
        Expr step = simplify(substitute(loop_.name, v + 1, base) - base);
        const int64_t *s = as_const_int(step);
        if (!s || *s == 0 || *s % t.lanes() != 0) {
            refused = true;
            return self(op);
        }
        candidates.push_back({op->name, t.element_of(), bytes, simplify(substitute(loop_.name, loop_.min, base))});
        return Store::make(op->name, op->value, op->index, true);
    }
};

class StreamOutputs : public IRMutator {
public:
    StreamOutputs(const std::set<std::string> &streamable, const std::map<std::string, int> &dimensions,
                  int64_t min_bytes)
        : streamable_(streamable), dimensions_(dimensions), min_bytes_(min_bytes) {}
    using IRMutator::mutate;
    using IRMutator::visit;

    int streaming_loops = 0;

    Stmt visit(const For *op) override {
        if (op->for_type == ForType::Parallel) {
            // Each task fences its own streaming stores before it ends: the thread that waits
            // for the tasks, or a later task on another thread, may read the output.
            int before = streaming_loops;
            Stmt body = mutate(op->body);
            if (streaming_loops > before) body = Block::make(body, store_fence());
            return body.same_as(op->body) ? self(op) : For::make(op->name, op->min, op->extent, op->for_type, body);
        }
        if (op->for_type != ForType::Serial || contains_node<For>(op->body)) return IRMutator::visit(op);
        MarkStreamingStores mark(*op, streamable_);
        Stmt streaming_body = mark.mutate(op->body);
        if (mark.refused || mark.candidates.empty()) return self(op);
        // Taken when every streamed output is aligned where this loop starts writing it, and
        // the outputs are large together.
        Expr aligned;
        std::map<std::string, Type> buffers;  // their element types (each output's size counts once)
        for (const Candidate &c : mark.candidates) {
            Expr first = Load::make(c.element, c.buffer, c.first_index);
            Expr is_aligned = Call::make(Bool(), Call::is_aligned, {first, Expr(c.bytes)}, Call::Intrinsic);
            aligned = aligned.defined() ? aligned && is_aligned : is_aligned;
            buffers[c.buffer] = c.element;
        }
        Expr total = make_const(Int(64), int64_t(0));
        for (const auto &[b, element] : buffers) {
            Expr size = make_const(Int(64), int64_t(element.bytes()));
            for (int d = 0; d < dimensions_.at(b); d++) {
                size = size * cast(Int(64), Variable::make(Int(32), b + ".extent." + std::to_string(d)));
            }
            total = total + size;
        }
        Expr large = total >= make_const(Int(64), min_bytes_);
        streaming_loops++;
        Stmt streaming = For::make(op->name, op->min, op->extent, op->for_type, streaming_body);
        return IfThenElse::make(simplify(large) && aligned, streaming, self(op));
    }

private:
    const std::set<std::string> &streamable_;
    const std::map<std::string, int> &dimensions_;
    int64_t min_bytes_;
};

}  // namespace

Stmt nontemporal_output_stores(const Stmt &s, const std::vector<OutputBufferShape> &outputs,
                               const std::set<std::string> &strided) {
    int64_t min_bytes = min_streamed_bytes();
    if (min_bytes < 0) return s;
    std::set<std::string> read = loaded_buffers(s);
    std::set<std::string> streamable;
    std::map<std::string, int> dimensions;
    for (const OutputBufferShape &o : outputs) {
        // (A 0-D output is one element: nothing to stream.)
        if (o.dimensions > 0 && !read.count(o.name) && !strided.count(o.name)) {
            streamable.insert(o.name);
            dimensions[o.name] = o.dimensions;
        }
    }
    if (streamable.empty()) return s;
    StreamOutputs stream(streamable, dimensions, min_bytes);
    Stmt result = stream.mutate(s);
    // And once at the end, for those outside parallel loops, before the caller reads the output.
    return stream.streaming_loops > 0 ? Block::make(result, store_fence()) : result;
}

}  // namespace halo
