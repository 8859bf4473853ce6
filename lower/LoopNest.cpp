#include "LoopNest.h"

#include <sstream>

#include "dsl/IRVisitor.h"

namespace halo {

namespace {

class LoopNestPrinter : public IRVisitor {
public:
    std::ostringstream out;

private:
    int depth_ = 0;
    std::string last_provide_;  // one line per run of stores to the same Func

    void line(const std::string &text) {
        out << std::string(size_t(2 * depth_), ' ') << text << "\n";
        last_provide_.clear();
    }
    void nested(const Stmt &body) {
        depth_++;
        body.accept(this);
        depth_--;
        last_provide_.clear();
    }
    void visit(const ProducerConsumer *op) override {
        if (!op->is_producer) {
            op->body.accept(this);  // the consumer's loops continue at the same depth
            return;
        }
        line("produce " + op->name + ":");
        nested(op->body);
    }
    void visit(const For *op) override {
        const char *kind = op->for_type == ForType::Parallel     ? "parallel"
                           : op->for_type == ForType::Vectorized ? "vectorized"
                           : op->for_type == ForType::Unrolled   ? "unrolled"
                                                                 : "for";
        line(std::string(kind) + " " + op->name + ":");
        nested(op->body);
    }
    void visit(const Realize *op) override {
        line("store " + op->name + ":");
        nested(op->body);
    }
    void visit(const Provide *op) override {
        if (last_provide_ == op->name) return;
        line(op->name + "(...) = ...");
        last_provide_ = op->name;
    }
    // Checks, lets and conditions are not loops: look through them.
    void visit(const AssertStmt *) override {}
};

}  // namespace

std::string loop_nest_text(const Stmt &s) {
    LoopNestPrinter p;
    s.accept(&p);
    return p.out.str();
}

}  // namespace halo
