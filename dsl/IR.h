// The IR: expression nodes (what users build through Expr) and statement nodes (what lowering
// builds). Nodes are immutable and shared; passes rebuild what they change.
#pragma once

#include <cstdint>
#include <memory>
#include <string>
#include <type_traits>
#include <vector>

#include "Type.h"

namespace halo {

enum class IRNodeType {
    // Expressions
    IntImm, UIntImm, FloatImm, StringImm, Cast, Variable, Add, Sub, Mul, Div, Mod, Min, Max,
    EQ, NE, LT, LE, GT, GE, And, Or, Not, Select, Load, Ramp, Broadcast, Call, Let,
    // Statements
    LetStmt, AssertStmt, ProducerConsumer, For, Store, Provide, Allocate, Realize, Block,
    IfThenElse, Evaluate,
};

class IRVisitor;
class IRMutator;
struct Expr;
struct Stmt;

struct IRNode : std::enable_shared_from_this<IRNode> {
    explicit IRNode(IRNodeType t) : node_type(t) {}
    virtual ~IRNode() = default;
    const IRNodeType node_type;
};

struct BaseExprNode : IRNode {
    BaseExprNode(IRNodeType t, Type ty) : IRNode(t), type(ty) {}
    virtual void accept(IRVisitor *v) const = 0;
    virtual Expr mutate(IRMutator *m) const = 0;
    Type type;
};

struct BaseStmtNode : IRNode {
    explicit BaseStmtNode(IRNodeType t) : IRNode(t) {}
    virtual void accept(IRVisitor *v) const = 0;
    virtual Stmt mutate(IRMutator *m) const = 0;
};

namespace detail {
// Drops a handle's reference to a node. Destroying a long chain of nodes recursively (a
// 100,000-deep expression a user built in a loop) would overflow the stack, so past a
// nesting depth the nodes are queued and destroyed one at a time by the outermost release.
// Handles call it only when they hold the last reference (the common, shared case stays a
// plain reference-count decrement).
void release_node(std::shared_ptr<const IRNode> &&node);
}  // namespace detail

// A handle to an immutable expression node. Converts implicitly from C++ scalars.
struct Expr {
    std::shared_ptr<const BaseExprNode> node;

    Expr() = default;
    Expr(std::shared_ptr<const BaseExprNode> n) : node(std::move(n)) {}
    Expr(const Expr &) = default;
    Expr(Expr &&) = default;
    // By value and swap: the node this handle held is released by o's destructor.
    Expr &operator=(Expr o) {
        node.swap(o.node);
        return *this;
    }
    ~Expr() {
        if (node && node.use_count() == 1) detail::release_node(std::move(node));
    }
    Expr(int8_t v);
    Expr(int16_t v);
    Expr(int32_t v);
    Expr(int64_t v);
    Expr(uint8_t v);
    Expr(uint16_t v);
    Expr(uint32_t v);
    Expr(uint64_t v);
    // Only a real bool (not a pointer or other type that converts to bool).
    template <typename B, typename std::enable_if<std::is_same<B, bool>::value, int>::type = 0>
    Expr(B v) : Expr(make_bool(v)) {}
    Expr(float v);
    Expr(double v);

    static Expr make_bool(bool v);
    bool defined() const { return node != nullptr; }
    Type type() const { return node->type; }
    const BaseExprNode *get() const { return node.get(); }
    template <typename T>
    const T *as() const {
        return node && node->node_type == T::static_type ? static_cast<const T *>(node.get())
                                                         : nullptr;
    }
    bool same_as(const Expr &o) const { return node == o.node; }
    void accept(IRVisitor *v) const { node->accept(v); }
};

struct Stmt {
    std::shared_ptr<const BaseStmtNode> node;

    Stmt() = default;
    Stmt(std::shared_ptr<const BaseStmtNode> n) : node(std::move(n)) {}
    Stmt(const Stmt &) = default;
    Stmt(Stmt &&) = default;
    // By value and swap: the node this handle held is released by o's destructor.
    Stmt &operator=(Stmt o) {
        node.swap(o.node);
        return *this;
    }
    ~Stmt() {
        if (node && node.use_count() == 1) detail::release_node(std::move(node));
    }
    bool defined() const { return node != nullptr; }
    const BaseStmtNode *get() const { return node.get(); }
    template <typename T>
    const T *as() const {
        return node && node->node_type == T::static_type ? static_cast<const T *>(node.get())
                                                         : nullptr;
    }
    bool same_as(const Stmt &o) const { return node == o.node; }
    void accept(IRVisitor *v) const { node->accept(v); }
};

struct FunctionContents;   // a Func's definitions and schedule (dsl/Function.h)
struct ParameterContents;  // a Param, ImageParam or bound Buffer (dsl/Parameter.h)
struct ReductionDomainContents;

// How a Call refers to the Func it reads: a strong reference, except in a Func's own
// definitions, where its reads of itself are weak. A strong one there would be a reference
// cycle (the Func owning itself), and the Func, its compiled pipeline and its buffers would
// never be freed. (Halide's FunctionPtr makes the same distinction.) Calls compare by the
// Func they name, strong or weak.
class FunctionPtr {
public:
    FunctionPtr() = default;
    FunctionPtr(std::nullptr_t) {}
    FunctionPtr(std::shared_ptr<FunctionContents> f) : strong_(std::move(f)), raw_(strong_.get()) {}
    static FunctionPtr weak(const std::shared_ptr<FunctionContents> &f) {
        FunctionPtr p;
        p.weak_ = f;
        p.raw_ = f.get();
        return p;
    }
    bool is_weak() const { return raw_ && !strong_; }
    // The Func, or null if it was freed (which only a weak reference can outlive).
    FunctionContents *get() const { return strong_ || !weak_.expired() ? raw_ : nullptr; }
    std::shared_ptr<FunctionContents> lock() const { return strong_ ? strong_ : weak_.lock(); }
    // The Func; an internal error if it was freed.
    FunctionContents *operator->() const;
    FunctionContents &operator*() const { return *operator->(); }
    explicit operator bool() const { return raw_ != nullptr; }
    // Identity, for comparisons only (never dereferenced).
    const FunctionContents *identity() const { return raw_; }

    friend bool operator==(const FunctionPtr &a, const FunctionPtr &b) { return a.raw_ == b.raw_; }
    friend bool operator!=(const FunctionPtr &a, const FunctionPtr &b) { return a.raw_ != b.raw_; }
    friend bool operator==(const FunctionPtr &a, const std::shared_ptr<FunctionContents> &b) { return a.raw_ == b.get(); }
    friend bool operator!=(const FunctionPtr &a, const std::shared_ptr<FunctionContents> &b) { return a.raw_ != b.get(); }

private:
    std::shared_ptr<FunctionContents> strong_;
    std::weak_ptr<FunctionContents> weak_;
    FunctionContents *raw_ = nullptr;
};

template <typename T, IRNodeType NT>
struct ExprNode : BaseExprNode {
    static constexpr IRNodeType static_type = NT;
    explicit ExprNode(Type t) : BaseExprNode(NT, t) {}
    void accept(IRVisitor *v) const override;
    Expr mutate(IRMutator *m) const override;
};

template <typename T, IRNodeType NT>
struct StmtNode : BaseStmtNode {
    static constexpr IRNodeType static_type = NT;
    StmtNode() : BaseStmtNode(NT) {}
    void accept(IRVisitor *v) const override;
    Stmt mutate(IRMutator *m) const override;
};

// ---------------------------------------------------------------- expressions

struct IntImm : ExprNode<IntImm, IRNodeType::IntImm> {
    int64_t value;
    IntImm(Type t, int64_t v) : ExprNode(t), value(v) {}
    static Expr make(Type t, int64_t v);
};

struct UIntImm : ExprNode<UIntImm, IRNodeType::UIntImm> {
    uint64_t value;
    UIntImm(Type t, uint64_t v) : ExprNode(t), value(v) {}
    static Expr make(Type t, uint64_t v);
};

struct FloatImm : ExprNode<FloatImm, IRNodeType::FloatImm> {
    double value;
    FloatImm(Type t, double v) : ExprNode(t), value(v) {}
    static Expr make(Type t, double v);
};

struct StringImm : ExprNode<StringImm, IRNodeType::StringImm> {
    std::string value;
    explicit StringImm(std::string v) : ExprNode(UInt(8)), value(std::move(v)) {}
    static Expr make(const std::string &v);
};

struct Cast : ExprNode<Cast, IRNodeType::Cast> {
    Expr value;
    Cast(Type t, Expr v) : ExprNode(t), value(std::move(v)) {}
    static Expr make(Type t, Expr v);
};

// A named value: a loop variable, a let binding, a pure Var, an RVar or a scalar Param.
struct Variable : ExprNode<Variable, IRNodeType::Variable> {
    std::string name;
    std::shared_ptr<ParameterContents> param;           // set for scalar Params
    std::shared_ptr<ReductionDomainContents> rdom;      // set for RVars
    Variable(Type t, std::string n) : ExprNode(t), name(std::move(n)) {}
    static Expr make(Type t, const std::string &n,
                     std::shared_ptr<ParameterContents> param = nullptr,
                     std::shared_ptr<ReductionDomainContents> rdom = nullptr);
};

template <typename T, IRNodeType NT>
struct BinaryOpNode : ExprNode<T, NT> {
    Expr a, b;
    BinaryOpNode(Type t, Expr a_, Expr b_) : ExprNode<T, NT>(t), a(std::move(a_)), b(std::move(b_)) {}
    // Builds the node; a and b must already have matching types.
    static Expr make(Expr a, Expr b);
};

#define HALO_BINARY_NODE(NAME) \
    struct NAME : BinaryOpNode<NAME, IRNodeType::NAME> { using BinaryOpNode::BinaryOpNode; };
HALO_BINARY_NODE(Add)
HALO_BINARY_NODE(Sub)
HALO_BINARY_NODE(Mul)
HALO_BINARY_NODE(Div)  // integers: rounds toward negative infinity (Euclidean with Mod)
HALO_BINARY_NODE(Mod)  // integers: result in [0, |b|)
HALO_BINARY_NODE(Min)
HALO_BINARY_NODE(Max)
HALO_BINARY_NODE(EQ)
HALO_BINARY_NODE(NE)
HALO_BINARY_NODE(LT)
HALO_BINARY_NODE(LE)
HALO_BINARY_NODE(GT)
HALO_BINARY_NODE(GE)
HALO_BINARY_NODE(And)
HALO_BINARY_NODE(Or)
#undef HALO_BINARY_NODE

struct Not : ExprNode<Not, IRNodeType::Not> {
    Expr a;
    Not(Type t, Expr a_) : ExprNode(t), a(std::move(a_)) {}
    static Expr make(Expr a);
};

struct Select : ExprNode<Select, IRNodeType::Select> {
    Expr condition, true_value, false_value;
    Select(Type t, Expr c, Expr tv, Expr fv)
        : ExprNode(t), condition(std::move(c)), true_value(std::move(tv)), false_value(std::move(fv)) {}
    static Expr make(Expr c, Expr t, Expr f);
};

// A load from a flat buffer (after storage flattening).
struct Load : ExprNode<Load, IRNodeType::Load> {
    std::string name;
    Expr index;
    Load(Type t, std::string n, Expr i) : ExprNode(t), name(std::move(n)), index(std::move(i)) {}
    static Expr make(Type t, const std::string &name, Expr index);
};

// base, base+stride, ..., base+(lanes-1)*stride
struct Ramp : ExprNode<Ramp, IRNodeType::Ramp> {
    Expr base, stride;
    int lanes;
    Ramp(Type t, Expr b, Expr s, int l) : ExprNode(t), base(std::move(b)), stride(std::move(s)), lanes(l) {}
    static Expr make(Expr base, Expr stride, int lanes);
};

struct Broadcast : ExprNode<Broadcast, IRNodeType::Broadcast> {
    Expr value;
    int lanes;
    Broadcast(Type t, Expr v, int l) : ExprNode(t), value(std::move(v)), lanes(l) {}
    static Expr make(Expr value, int lanes);
};

struct Call : ExprNode<Call, IRNodeType::Call> {
    enum CallType {
        Halo,       // a call to a Func
        Image,      // a read of an input buffer (ImageParam or Buffer)
        Intrinsic,  // an operation codegen knows (bitwise ops, math functions, ...)
        Extern,     // a C function of the runtime (called with the user_context first)
        ExternC,    // a C function of the user's (HalideExtern_N, dsl/ExternFunction.h)
    };
    std::string name;
    std::vector<Expr> args;
    CallType call_type;
    FunctionPtr func;                          // for Halo calls
    std::shared_ptr<ParameterContents> param;  // for Image calls
    // For a call to a Tuple-valued Func: which component of the Tuple it reads.
    int value_index = 0;
    Call(Type t, std::string n, std::vector<Expr> a, CallType ct)
        : ExprNode(t), name(std::move(n)), args(std::move(a)), call_type(ct) {}
    static Expr make(Type t, const std::string &name, std::vector<Expr> args, CallType ct,
                     FunctionPtr func = nullptr,
                     std::shared_ptr<ParameterContents> param = nullptr, int value_index = 0);

    bool is_intrinsic(const char *n) const { return call_type == Intrinsic && name == n; }
    // An intrinsic whose evaluation does something besides giving its value (prints, or fails
    // the pipeline): evaluating it once more, or once less, changes what the pipeline does.
    bool is_effect_intrinsic() const {
        return is_intrinsic(print) || is_intrinsic(print_when) || is_intrinsic(require) || is_intrinsic(atomic_lock) ||
               is_intrinsic(atomic_unlock);
    }
    // A call that may do something besides giving its value: an effect intrinsic, or a call of
    // a C function (the runtime's or the user's), which Halo cannot see into.
    bool may_have_side_effects() const { return is_effect_intrinsic() || call_type == Extern || call_type == ExternC; }

    // Intrinsic names
    static constexpr const char *bitwise_and = "bitwise_and";
    static constexpr const char *bitwise_or = "bitwise_or";
    static constexpr const char *bitwise_xor = "bitwise_xor";
    static constexpr const char *bitwise_not = "bitwise_not";
    static constexpr const char *shift_left = "shift_left";
    static constexpr const char *shift_right = "shift_right";
    static constexpr const char *abs = "abs";
    // Bit counts of an integer, in its own type (Halide's popcount, count_leading_zeros,
    // count_trailing_zeros; a zero has as many leading and trailing zeros as the type has bits).
    static constexpr const char *popcount = "popcount";
    static constexpr const char *count_leading_zeros = "count_leading_zeros";
    static constexpr const char *count_trailing_zeros = "count_trailing_zeros";
    // reinterpret(x): x's bits read as the Call's type, which has the same bits per lane.
    static constexpr const char *reinterpret = "reinterpret";
    static constexpr const char *likely = "likely";
    // store_guard(c): c, the condition of an if that decides only whether points are stored,
    // not whether their values may be computed (every point's value is defined and in bounds
    // either way). A vectorized loop may compute all lanes and store under the mask c, where
    // another lane-varying condition makes it run lane by lane.
    static constexpr const char *store_guard = "store_guard";
    // Halide's undef(): in an update's Tuple, "this value stays as it is" (replaced by a read of
    // the Func at the point the update writes when the update is defined).
    static constexpr const char *undef = "undef";
    // promise_clamped(value, lo, hi): value, which lowering knows lies in [lo, hi]. Bounds
    // inference uses the interval; the promise is removed before code generation.
    static constexpr const char *promise_clamped = "promise_clamped";
    // unsafe_promise_clamped(value, lo, hi): the user's promise (Halide's), used by bounds
    // inference as promise_clamped is and removed with it. Nothing checks it: a false promise
    // is undefined behaviour, as in Halide.
    static constexpr const char *unsafe_promise_clamped = "unsafe_promise_clamped";
    // strict_float(x): x, whose float arithmetic is not contracted into fused multiply-adds.
    static constexpr const char *strict_float = "strict_float";
    // prefetch(load): a hint that the element the Load names (its first lane's) is read soon;
    // it reads nothing and never faults (PrefetchSlidingInputs.h makes these).
    static constexpr const char *prefetch = "prefetch";
    // is_aligned(load, bytes): whether the address of the element the Load names (its first
    // lane's) is a multiple of bytes, a power of two. Reads nothing.
    static constexpr const char *is_aligned = "is_aligned";
    // store_fence(): orders the nontemporal stores before it before every store after it (they
    // are weakly ordered otherwise).
    static constexpr const char *store_fence = "store_fence";
    // atomic_lock(load, ...) and atomic_unlock(load, ...): take and give back the lock of the
    // point the first Load names (its address; nothing is read), around the update of one
    // point of a Tuple-valued Func scheduled atomic(). The Loads name the point in each of the
    // Tuple's buffers: between the two, loads and stores of those buffers are atomic ones
    // (an update given atomic(true) may read points other threads update).
    static constexpr const char *atomic_lock = "atomic_lock";
    static constexpr const char *atomic_unlock = "atomic_unlock";
    // require(condition, value, condition_text, func_name, message...): value where condition
    // holds; elsewhere the pipeline stops with a run-time error that prints the message.
    static constexpr const char *require = "require";
    // random(seed, call_id): a placeholder for random_float/int/uint until the Func that uses it
    // is defined, which replaces it by a hash of the definition's coordinates (dsl/Random.h).
    static constexpr const char *random = "random";
    // print(a, ...): prints its arguments (numbers and strings) on one line each time it is
    // evaluated and is the value of a. print_when(c, a, ...): the same, printing only when c.
    static constexpr const char *print = "print";
    static constexpr const char *print_when = "print_when";
};

struct Let : ExprNode<Let, IRNodeType::Let> {
    std::string name;
    Expr value, body;
    Let(Type t, std::string n, Expr v, Expr b) : ExprNode(t), name(std::move(n)), value(std::move(v)), body(std::move(b)) {}
    static Expr make(const std::string &name, Expr value, Expr body);
};

// ---------------------------------------------------------------- statements

struct LetStmt : StmtNode<LetStmt, IRNodeType::LetStmt> {
    std::string name;
    Expr value;
    Stmt body;
    static Stmt make(const std::string &name, Expr value, Stmt body);
};

// If condition is false, evaluates message (an Extern call returning the error code) and
// returns that code from the pipeline.
struct AssertStmt : StmtNode<AssertStmt, IRNodeType::AssertStmt> {
    Expr condition, message;
    static Stmt make(Expr condition, Expr message);
};

struct ProducerConsumer : StmtNode<ProducerConsumer, IRNodeType::ProducerConsumer> {
    std::string name;
    bool is_producer;
    Stmt body;
    static Stmt make(const std::string &name, bool is_producer, Stmt body);
};

enum class ForType { Serial, Parallel, Vectorized, Unrolled };

struct For : StmtNode<For, IRNodeType::For> {
    std::string name;
    Expr min, extent;
    ForType for_type;
    Stmt body;
    static Stmt make(const std::string &name, Expr min, Expr extent, ForType t, Stmt body);
};

struct Store : StmtNode<Store, IRNodeType::Store> {
    std::string name;
    Expr value, index;
    // A streaming store that bypasses the caches (lower/NontemporalStores.h makes these, only
    // of whole vectors at addresses aligned to their size).
    bool nontemporal = false;
    // An atomic read-modify-write of one element (Stage::atomic): the value, which may read the
    // element stored to, is computed from the element's current contents and stored only if
    // no other thread changed it meanwhile, else computed again (a compare-and-swap loop).
    bool atomic = false;
    static Stmt make(const std::string &name, Expr value, Expr index, bool nontemporal = false, bool atomic = false);
};

// A multi-dimensional store to a Func, before storage flattening.
// Writes every component of a Func's value at one point (one value unless the Func is
// Tuple-valued). All values are computed before any is written.
struct Provide : StmtNode<Provide, IRNodeType::Provide> {
    std::string name;
    std::vector<Expr> values;
    std::vector<Expr> args;
    // Of a stage scheduled atomic(): becomes an atomic Store.
    bool atomic = false;
    static Stmt make(const std::string &name, std::vector<Expr> values, std::vector<Expr> args, bool atomic = false);
};

// Where a Func's buffer lives (Halide's store_in). Auto: on the stack when its size is known
// at compile time and at most 64 KiB, else on the heap. Stack and Register: on the stack when
// its size is known at compile time and at most 1 MiB (Halo makes no variable-sized stack
// allocations, and larger ones could overflow a worker thread's stack: those go on the heap).
// Heap: always on the heap. Only where the buffer lives changes, never what is computed.
enum class MemoryType { Auto, Heap, Stack, Register };

// Storage for a buffer for the duration of body (freed on every exit path).
struct Allocate : StmtNode<Allocate, IRNodeType::Allocate> {
    std::string name;
    Type type;
    std::vector<Expr> extents;
    Stmt body;
    MemoryType memory_type = MemoryType::Auto;
    static Stmt make(const std::string &name, Type t, std::vector<Expr> extents, Stmt body,
                     MemoryType memory_type = MemoryType::Auto);
};

struct Range {
    Expr min, extent;
    Range() = default;
    Range(Expr m, Expr e) : min(std::move(m)), extent(std::move(e)) {}
};

// A multi-dimensional region of a Func, before storage flattening.
// A Tuple-valued Func has one type per component (storage flattening gives each a buffer).
struct Realize : StmtNode<Realize, IRNodeType::Realize> {
    std::string name;
    std::vector<Type> types;
    std::vector<Range> bounds;
    Stmt body;
    static Stmt make(const std::string &name, std::vector<Type> types, std::vector<Range> bounds, Stmt body);
};

struct Block : StmtNode<Block, IRNodeType::Block> {
    Stmt first, rest;
    static Stmt make(Stmt first, Stmt rest);
    static Stmt make(const std::vector<Stmt> &stmts);
};

struct IfThenElse : StmtNode<IfThenElse, IRNodeType::IfThenElse> {
    Expr condition;
    Stmt then_case, else_case;
    static Stmt make(Expr condition, Stmt then_case, Stmt else_case = Stmt());
};

struct Evaluate : StmtNode<Evaluate, IRNodeType::Evaluate> {
    Expr value;
    static Stmt make(Expr value);
};

// Helpers
const int64_t *as_const_int(const Expr &e);
// The pointer points into e's node: a temporary Expr (as_const_int(simplify(x))) would leave it
// dangling once the temporary is gone. Keep the Expr in a variable first.
const int64_t *as_const_int(Expr &&e) = delete;
bool is_const(const Expr &e);
bool is_const(const Expr &e, int64_t v);
inline bool is_zero(const Expr &e) { return is_const(e, 0); }
inline bool is_one(const Expr &e) { return is_const(e, 1); }
// A constant of type t with value v (broadcast if t is a vector).
Expr make_const(Type t, int64_t v);
Expr make_const(Type t, double v);
Expr make_zero(Type t);
Expr make_one(Type t);

}  // namespace halo

#include "IRVisitor.h"
