#include "IRPrinter.h"

#include <sstream>

#include "Function.h"

namespace halo {

namespace {

class IRPrinter : public IRVisitor {
public:
    explicit IRPrinter(std::ostream &os) : os_(os) {}

    void print(const Expr &e) {
        if (e.defined()) e.accept(this);
        else os_ << "(undefined)";
    }
    void print(const Stmt &s) {
        if (s.defined()) s.accept(this);
    }

private:
    std::ostream &os_;
    int indent_ = 0;

    void pad() { os_ << std::string(indent_ * 2, ' '); }
    void binary(const Expr &a, const char *op, const Expr &b) {
        os_ << "(";
        print(a);
        os_ << " " << op << " ";
        print(b);
        os_ << ")";
    }
    void call(const char *name, const Expr &a, const Expr &b) {
        os_ << name << "(";
        print(a);
        os_ << ", ";
        print(b);
        os_ << ")";
    }
    void block(const Stmt &body) {
        indent_++;
        print(body);
        indent_--;
    }

    void visit(const IntImm *op) override {
        if (op->type == Int(32)) os_ << op->value;
        else os_ << "(" << op->type.to_string() << ")" << op->value;
    }
    void visit(const UIntImm *op) override {
        if (op->type.is_bool()) os_ << (op->value ? "true" : "false");
        else os_ << "(" << op->type.to_string() << ")" << op->value;
    }
    void visit(const FloatImm *op) override {
        os_ << op->value;
        if (op->type.bits() == 32) os_ << "f";
    }
    void visit(const StringImm *op) override { os_ << '"' << op->value << '"'; }
    void visit(const Cast *op) override {
        os_ << op->type.to_string() << "(";
        print(op->value);
        os_ << ")";
    }
    void visit(const Variable *op) override { os_ << op->name; }
    void visit(const Add *op) override { binary(op->a, "+", op->b); }
    void visit(const Sub *op) override { binary(op->a, "-", op->b); }
    void visit(const Mul *op) override { binary(op->a, "*", op->b); }
    void visit(const Div *op) override { binary(op->a, "/", op->b); }
    void visit(const Mod *op) override { binary(op->a, "%", op->b); }
    void visit(const Min *op) override { call("min", op->a, op->b); }
    void visit(const Max *op) override { call("max", op->a, op->b); }
    void visit(const EQ *op) override { binary(op->a, "==", op->b); }
    void visit(const NE *op) override { binary(op->a, "!=", op->b); }
    void visit(const LT *op) override { binary(op->a, "<", op->b); }
    void visit(const LE *op) override { binary(op->a, "<=", op->b); }
    void visit(const GT *op) override { binary(op->a, ">", op->b); }
    void visit(const GE *op) override { binary(op->a, ">=", op->b); }
    void visit(const And *op) override { binary(op->a, "&&", op->b); }
    void visit(const Or *op) override { binary(op->a, "||", op->b); }
    void visit(const Not *op) override {
        os_ << "!";
        print(op->a);
    }
    void visit(const Select *op) override {
        os_ << "select(";
        print(op->condition);
        os_ << ", ";
        print(op->true_value);
        os_ << ", ";
        print(op->false_value);
        os_ << ")";
    }
    void visit(const Load *op) override {
        os_ << op->name << "[";
        print(op->index);
        os_ << "]";
    }
    void visit(const Ramp *op) override {
        os_ << "ramp(";
        print(op->base);
        os_ << ", ";
        print(op->stride);
        os_ << ", " << op->lanes << ")";
    }
    void visit(const Broadcast *op) override {
        os_ << "x" << op->lanes << "(";
        print(op->value);
        os_ << ")";
    }
    void visit(const Call *op) override {
        os_ << op->name << "(";
        for (size_t i = 0; i < op->args.size(); i++) {
            if (i) os_ << ", ";
            print(op->args[i]);
        }
        os_ << ")";
        // (Every value of a Tuple-valued Func's call is shown, [0] too: f()[0] beside f()[1].)
        const FunctionContents *f = op->call_type == Call::Halo ? op->func.get() : nullptr;
        if (op->value_index > 0 || (f && f->outputs() > 1)) os_ << "[" << op->value_index << "]";
    }
    void visit(const Let *op) override {
        os_ << "(let " << op->name << " = ";
        print(op->value);
        os_ << " in ";
        print(op->body);
        os_ << ")";
    }

    void visit(const LetStmt *op) override {
        pad();
        os_ << "let " << op->name << " = ";
        print(op->value);
        os_ << "\n";
        print(op->body);
    }
    void visit(const AssertStmt *op) override {
        pad();
        os_ << "assert(";
        print(op->condition);
        os_ << ", ";
        print(op->message);
        os_ << ")\n";
    }
    void visit(const ProducerConsumer *op) override {
        pad();
        os_ << (op->is_producer ? "produce " : "consume ") << op->name << " {\n";
        block(op->body);
        pad();
        os_ << "}\n";
    }
    void visit(const For *op) override {
        static const char *kinds[] = {"for", "parallel", "vectorized", "unrolled"};
        pad();
        os_ << kinds[int(op->for_type)] << " (" << op->name << ", ";
        print(op->min);
        os_ << ", ";
        print(op->extent);
        os_ << ") {\n";
        block(op->body);
        pad();
        os_ << "}\n";
    }
    void visit(const Store *op) override {
        pad();
        if (op->nontemporal) os_ << "nontemporal ";
        if (op->atomic) os_ << "atomic ";
        os_ << op->name << "[";
        print(op->index);
        os_ << "] = ";
        print(op->value);
        os_ << "\n";
    }
    void visit(const Provide *op) override {
        pad();
        if (op->atomic) os_ << "atomic ";
        os_ << op->name << "(";
        for (size_t i = 0; i < op->args.size(); i++) {
            if (i) os_ << ", ";
            print(op->args[i]);
        }
        os_ << ") = ";
        if (op->values.size() == 1) {
            print(op->values[0]);
        } else {
            os_ << "{";
            for (size_t i = 0; i < op->values.size(); i++) {
                if (i) os_ << ", ";
                print(op->values[i]);
            }
            os_ << "}";
        }
        os_ << "\n";
    }
    void visit(const Allocate *op) override {
        pad();
        os_ << "allocate " << op->name << "[" << op->type.to_string();
        for (auto &e : op->extents) {
            os_ << " * ";
            print(e);
        }
        static const char *where[] = {"", " in Heap", " in Stack", " in Register"};
        os_ << "]" << where[int(op->memory_type)] << "\n";
        print(op->body);
        pad();
        os_ << "free " << op->name << "\n";
    }
    void visit(const Realize *op) override {
        pad();
        os_ << "realize " << op->name << "(";
        for (size_t i = 0; i < op->bounds.size(); i++) {
            if (i) os_ << ", ";
            os_ << "[";
            print(op->bounds[i].min);
            os_ << ", ";
            print(op->bounds[i].extent);
            os_ << "]";
        }
        os_ << ") {\n";
        block(op->body);
        pad();
        os_ << "}\n";
    }
    void visit(const Block *op) override {
        print(op->first);
        print(op->rest);
    }
    void visit(const IfThenElse *op) override {
        pad();
        os_ << "if (";
        print(op->condition);
        os_ << ") {\n";
        block(op->then_case);
        if (op->else_case.defined()) {
            pad();
            os_ << "} else {\n";
            block(op->else_case);
        }
        pad();
        os_ << "}\n";
    }
    void visit(const Evaluate *op) override {
        pad();
        print(op->value);
        os_ << "\n";
    }
};

}  // namespace

std::ostream &operator<<(std::ostream &os, const Expr &e) {
    IRPrinter(os).print(e);
    return os;
}
std::ostream &operator<<(std::ostream &os, const Stmt &s) {
    IRPrinter(os).print(s);
    return os;
}
std::ostream &operator<<(std::ostream &os, const Type &t) { return os << t.to_string(); }
std::string to_string(const Expr &e) {
    std::ostringstream s;
    s << e;
    return s.str();
}
std::string to_string(const Stmt &s) {
    std::ostringstream o;
    o << s;
    return o.str();
}

}  // namespace halo
