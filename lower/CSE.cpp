#include "CSE.h"

#include <algorithm>
#include <unordered_map>
#include <vector>

#include "dsl/IRVisitor.h"
#include "dsl/Parameter.h"

namespace halo {

namespace {

// The direct children of one node: the default visit of the root reaches its children,
// whose visits record them instead of going deeper.
class DirectChildren : public IRVisitor {
public:
    explicit DirectChildren(const Expr &root) : root_(root.get()) { root.accept(this); }
    std::vector<Expr> children;

private:
    const BaseExprNode *root_;
#define HALO_CHILD_VISIT(N)                          \
    void visit(const N *op) override {               \
        if (op == root_) IRVisitor::visit(op);       \
        else children.push_back(IRMutator::self(op)); \
    }
    HALO_FOR_EACH_EXPR_NODE(HALO_CHILD_VISIT)
#undef HALO_CHILD_VISIT
};

struct NodeInfo {
    std::vector<Expr> children;
    uint64_t tree_size = 1, depth = 0;
    int uses = 0;
    std::vector<std::string> free_vars;  // sorted: the variables it uses that it does not bind
};

std::vector<std::string> merged(const std::vector<std::string> &a, const std::vector<std::string> &b) {
    std::vector<std::string> r;
    std::set_union(a.begin(), a.end(), b.begin(), b.end(), std::back_inserter(r));
    return r;
}

const uint64_t size_cap = uint64_t(1) << 62;

// Every distinct node of e with its children, tree size, depth and number of uses, found
// with an explicit stack (a deep expression must not overflow the C++ stack). `order` lists
// the nodes children first.
void analyse(const Expr &e, std::unordered_map<const BaseExprNode *, NodeInfo> &info,
             std::vector<const BaseExprNode *> &order) {
    enum State { New, Expanded, Done };
    std::unordered_map<const BaseExprNode *, State> state;
    struct Frame {
        Expr e;
        bool expanded;
    };
    std::vector<Frame> stack{{e, false}};
    info[e.get()].uses = 1;
    while (!stack.empty()) {
        Frame f = stack.back();
        stack.pop_back();
        const BaseExprNode *node = f.e.get();
        NodeInfo &n = info[node];
        if (!f.expanded) {
            State &st = state[node];
            if (st != New) continue;  // reached again through another parent
            st = Expanded;
            n.children = DirectChildren(f.e).children;
            stack.push_back({f.e, true});
            for (auto &c : n.children) {
                info[c.get()].uses++;
                if (state[c.get()] == New) stack.push_back({c, false});
            }
            continue;
        }
        for (auto &c : n.children) {
            const NodeInfo &ci = info.at(c.get());
            n.tree_size = std::min(size_cap, n.tree_size + ci.tree_size);
            n.depth = std::max(n.depth, ci.depth + 1);
        }
        if (auto v = f.e.as<Variable>()) {
            n.free_vars = {v->name};
        } else if (auto l = f.e.as<Let>()) {
            std::vector<std::string> body = info.at(l->body.get()).free_vars;
            body.erase(std::remove(body.begin(), body.end(), l->name), body.end());
            n.free_vars = merged(info.at(l->value.get()).free_vars, body);
        } else {
            for (auto &c : n.children) n.free_vars = merged(n.free_vars, info.at(c.get()).free_vars);
        }
        state[node] = Done;
        order.push_back(node);
    }
}

bool is_leaf(const BaseExprNode *n) {
    switch (n->node_type) {
    case IRNodeType::IntImm:
    case IRNodeType::UIntImm:
    case IRNodeType::FloatImm:
    case IRNodeType::StringImm:
    case IRNodeType::Variable:
        return true;
    default:
        return false;
    }
}

// Rebuilds an expression graph bottom-up once per node, binding the chosen nodes to Lets.
class Lift : public IRMutator {
public:
    Lift(const std::unordered_map<const BaseExprNode *, NodeInfo> &info, const std::vector<std::string> &binders)
        : info_(info), binders_(binders) {}
    using IRMutator::visit;
    std::vector<std::pair<std::string, Expr>> lets;  // in the order they must be bound

    Expr mutate(const Expr &e) override {
        if (!e.defined()) return e;
        auto done = memo_.find(e.get());
        if (done != memo_.end()) return done->second;
        Expr r = e.get()->mutate(this);
        const NodeInfo &n = info_.at(e.get());
        // Not a subexpression that uses a name some Let in e binds: lifted out of that Let's
        // scope, the name would be unbound.
        bool uses_binder = false;
        for (auto &v : n.free_vars) uses_binder |= std::binary_search(binders_.begin(), binders_.end(), v);
        bool lift = n.uses >= 2 && n.tree_size >= 3 && !is_leaf(e.get()) && !uses_binder &&
                    e.get()->node_type != IRNodeType::Ramp && e.get()->node_type != IRNodeType::Broadcast;
        if (lift) {
            std::string name = unique_name('t') + ".cse";
            lets.push_back({name, r});
            r = Variable::make(r.type(), name);
        }
        memo_[e.get()] = r;
        return r;
    }

private:
    const std::unordered_map<const BaseExprNode *, NodeInfo> &info_;
    const std::vector<std::string> &binders_;  // sorted
    std::unordered_map<const BaseExprNode *, Expr> memo_;
};

}  // namespace

namespace {
ExprShape shape_of(const Expr &e, const std::unordered_map<const BaseExprNode *, NodeInfo> &info,
                   const std::vector<const BaseExprNode *> &order) {
    ExprShape s;
    s.nodes = order.size();
    s.tree_size = info.at(e.get()).tree_size;
    s.depth = info.at(e.get()).depth;
    for (auto *n : order) s.has_lets |= n->node_type == IRNodeType::Let;
    return s;
}
}  // namespace

ExprShape expr_shape(const Expr &e) {
    if (!e.defined()) return ExprShape();
    std::unordered_map<const BaseExprNode *, NodeInfo> info;
    std::vector<const BaseExprNode *> order;
    analyse(e, info, order);
    return shape_of(e, info, order);
}

bool tree_size_below(const Expr &e, uint64_t limit) {
    std::vector<Expr> stack;
    if (e.defined()) stack.push_back(e);
    uint64_t seen = 0;
    while (!stack.empty()) {
        if (++seen >= limit) return false;
        Expr n = std::move(stack.back());
        stack.pop_back();
        for (auto &c : DirectChildren(n).children) stack.push_back(c);
    }
    return true;
}

Expr common_subexpression_elimination(const Expr &e, ExprShape *shape, uint64_t max_depth) {
    if (!e.defined()) return e;
    std::unordered_map<const BaseExprNode *, NodeInfo> info;
    std::vector<const BaseExprNode *> order;
    analyse(e, info, order);
    if (shape) *shape = shape_of(e, info, order);
    // Lifting walks the expression recursively: not for one deeper than the caller allows.
    if (info.at(e.get()).depth > max_depth) return e;
    uint64_t tree = info.at(e.get()).tree_size;
    // Little sharing: the tree costs no more than the graph.
    if (tree <= 2 * order.size() + 64) return e;
    std::vector<std::string> binders;
    for (auto *n : order) {
        if (n->node_type == IRNodeType::Let) binders.push_back(static_cast<const Let *>(n)->name);
    }
    std::sort(binders.begin(), binders.end());
    Lift lift(info, binders);
    Expr body = lift.mutate(e);
    for (auto it = lift.lets.rbegin(); it != lift.lets.rend(); ++it) body = Let::make(it->first, it->second, body);
    return body;
}

}  // namespace halo
