#include "Substitute.h"

#include "IREquality.h"

namespace halo {

namespace {

class Substituter : public IRMutator {
public:
    explicit Substituter(const std::map<std::string, Expr> &m) : m_(m) {}
    using IRMutator::mutate;
    using IRMutator::visit;

    // A node reached along several paths (expressions are graphs: e + e, or a value a user
    // reused) is substituted once, so the result shares it too: substituting into a graph
    // node by node along every path would return a tree, exponentially larger.
    Expr mutate(const Expr &e) override {
        return memo_.get(e, [&](const Expr &once) { return IRMutator::mutate(once); });
    }

    Expr visit(const Variable *op) override {
        auto it = m_.find(op->name);
        if (it != m_.end() && !shadowed(op->name)) return it->second;
        return self(op);
    }
    Expr visit(const Let *op) override {
        Expr v = mutate(op->value);
        shadow_.insert(op->name);
        Expr b = in_new_scope([&] { return mutate(op->body); });
        shadow_.erase(shadow_.find(op->name));
        return v.same_as(op->value) && b.same_as(op->body) ? self(op) : Let::make(op->name, v, b);
    }
    Stmt visit(const LetStmt *op) override {
        Expr v = mutate(op->value);
        shadow_.insert(op->name);
        Stmt b = in_new_scope([&] { return mutate(op->body); });
        shadow_.erase(shadow_.find(op->name));
        return v.same_as(op->value) && b.same_as(op->body) ? self(op) : LetStmt::make(op->name, v, b);
    }
    Stmt visit(const For *op) override {
        Expr mn = mutate(op->min), ex = mutate(op->extent);
        shadow_.insert(op->name);
        Stmt b = in_new_scope([&] { return mutate(op->body); });
        shadow_.erase(shadow_.find(op->name));
        if (mn.same_as(op->min) && ex.same_as(op->extent) && b.same_as(op->body)) return self(op);
        return For::make(op->name, mn, ex, op->for_type, b);
    }

private:
    // Inside a binding of a substituted name, the same node may substitute differently: the
    // results found outside are set aside meanwhile.
    template <typename F>
    auto in_new_scope(F body) -> decltype(body()) {
        MutationMemo outside;
        outside.swap(memo_);
        auto r = body();
        memo_.swap(outside);
        return r;
    }
    bool shadowed(const std::string &n) const { return shadow_.count(n) > 0; }
    MutationMemo memo_;
    const std::map<std::string, Expr> &m_;
    std::multiset<std::string> shadow_;
};

class UsesVar : public IRVisitor {
public:
    explicit UsesVar(const std::string &n) : name(n) {}
    const std::string &name;
    bool found = false;
    void visit(const Variable *op) override { found |= op->name == name; }
};


}  // namespace

Expr substitute(const std::string &name, const Expr &replacement, const Expr &e) {
    std::map<std::string, Expr> m{{name, replacement}};
    return Substituter(m).mutate(e);
}
Stmt substitute(const std::string &name, const Expr &replacement, const Stmt &s) {
    std::map<std::string, Expr> m{{name, replacement}};
    return Substituter(m).mutate(s);
}
Expr substitute(const std::map<std::string, Expr> &m, const Expr &e) { return Substituter(m).mutate(e); }
Stmt substitute(const std::map<std::string, Expr> &m, const Stmt &s) { return Substituter(m).mutate(s); }

namespace {
class ReplaceExpr : public IRMutator {
public:
    ReplaceExpr(const Expr &find, const Expr &replacement) : find_(find), replacement_(replacement) {}
    using IRMutator::mutate;
    Expr mutate(const Expr &e) override { return equal(e, find_) ? replacement_ : IRMutator::mutate(e); }

private:
    const Expr &find_, &replacement_;
};
}  // namespace

Expr substitute_expr(const Expr &find, const Expr &replacement, const Expr &e) {
    return ReplaceExpr(find, replacement).mutate(e);
}

bool expr_uses_var(const Expr &e, const std::string &name) {
    UsesVar v(name);
    if (e.defined()) e.accept(&v);
    return v.found;
}
bool stmt_uses_var(const Stmt &s, const std::string &name) {
    UsesVar v(name);
    if (s.defined()) s.accept(&v);
    return v.found;
}

void collect_variables(const Expr &e, std::set<std::string> &names) {
    struct Names : IRVisitor {
        std::set<std::string> &names;
        explicit Names(std::set<std::string> &n) : names(n) {}
        using IRVisitor::visit;
        void visit(const Variable *op) override { names.insert(op->name); }
    } collect(names);
    if (e.defined()) e.accept(&collect);
}

}  // namespace halo
