#include "CodeGenLLVM.h"

#include <cstdlib>
#include <llvm/IR/IRBuilder.h>
#include <llvm/IR/Intrinsics.h>
#include <llvm/IR/IntrinsicsX86.h>
#include <llvm/IR/LLVMContext.h>
#include <llvm/IR/MDBuilder.h>
#include <llvm/IR/Module.h>
#include <llvm/IR/Verifier.h>
#include <llvm/MC/MCSubtargetInfo.h>
#include <llvm/IR/PassTimingInfo.h>
#include <llvm/Pass.h>
#include <llvm/Support/CommandLine.h>
#include <llvm/Support/TargetSelect.h>
#include <llvm/Support/raw_ostream.h>
#include <llvm/Target/TargetMachine.h>

#include <algorithm>
#include <cmath>
#include <map>
#include <mutex>
#include <set>

#include "dsl/ExternFunction.h"
#include "OptimizeModule.h"
#include "dsl/Error.h"
#include "dsl/IROperator.h"
#include "lower/IREquality.h"
#include "lower/PassTiming.h"
#include "runtime/HaloRuntime.h"
#include "dsl/IRPrinter.h"
#include "dsl/IRVisitor.h"

namespace halo {

namespace {

using llvm::Value;

// Math functions compiled as calls to the C library ("sinf" for float32), lane by lane.
bool is_libm_function(const std::string &n) {
    static const std::set<std::string> names = {"tan",  "atan2", "asin",  "acos",  "atan",  "sinh", "cosh",
                                                "tanh", "asinh", "acosh", "atanh", "hypot", "erf"};
    return names.count(n) > 0;
}

// Names of variables and buffers a statement uses but does not define (for closures).
class FreeVariables : public IRVisitor {
public:
    std::set<std::string> vars, buffers;

private:
    std::multiset<std::string> bound_;
    void bind(const std::string &n) { bound_.insert(n); }
    void unbind(const std::string &n) { bound_.erase(bound_.find(n)); }
    void visit(const Variable *op) override {
        if (!bound_.count(op->name)) vars.insert(op->name);
    }
    void visit(const Load *op) override {
        if (!bound_.count(op->name)) buffers.insert(op->name);
        IRVisitor::visit(op);
    }
    void visit(const Store *op) override {
        if (!bound_.count(op->name)) buffers.insert(op->name);
        IRVisitor::visit(op);
    }
    void visit(const Let *op) override {
        op->value.accept(this);
        bind(op->name);
        op->body.accept(this);
        unbind(op->name);
    }
    void visit(const LetStmt *op) override {
        op->value.accept(this);
        bind(op->name);
        op->body.accept(this);
        unbind(op->name);
    }
    void visit(const For *op) override {
        op->min.accept(this);
        op->extent.accept(this);
        bind(op->name);
        op->body.accept(this);
        unbind(op->name);
    }
    void visit(const Allocate *op) override {
        for (auto &e : op->extents) e.accept(this);
        bind(op->name);
        op->body.accept(this);
        unbind(op->name);
    }
};

class CodeGen : public IRVisitor {
public:
    CodeGen(llvm::LLVMContext &ctx, llvm::Module &m, llvm::TargetMachine &tm)
        : ctx_(ctx), module_(m), tm_(tm), builder_(ctx) {}

    void compile(const LoweredPipeline &p);

private:
    llvm::LLVMContext &ctx_;
    llvm::Module &module_;
    llvm::TargetMachine &tm_;
    llvm::IRBuilder<> builder_;
    llvm::Function *function_ = nullptr;
    Value *value_ = nullptr;
    std::map<std::string, Value *> symbols_;  // scalar and vector values
    std::map<std::string, Value *> buffers_;  // host pointers
    std::vector<Value *> heap_allocations_;   // live heap buffers, freed on error paths
    int closure_counter_ = 0;

    // ---- helpers
    llvm::Type *llvm_type(Type t) {
        llvm::Type *e;
        if (t.is_float()) e = t.bits() == 64 ? builder_.getDoubleTy() : builder_.getFloatTy();
        else e = builder_.getIntNTy(t.bits());
        return t.lanes() > 1 ? llvm::FixedVectorType::get(e, t.lanes()) : e;
    }
    // Element type in memory (bools are bytes).
    llvm::Type *memory_type(Type t) { return llvm_type(t.is_bool() ? UInt(8, t.lanes()) : t); }

    Value *codegen(const Expr &e) {
        internal_assert(e.defined()) << "codegen of undefined Expr";
        value_ = nullptr;
        e.accept(this);
        internal_assert(value_) << "codegen produced no value for " << e;
        return value_;
    }
    void codegen(const Stmt &s) {
        if (s.defined()) s.accept(this);
    }

    template <typename F>
    void with_symbol(std::map<std::string, Value *> &table, const std::string &name, Value *v, F body) {
        auto it = table.find(name);
        bool had = it != table.end();
        Value *old = had ? it->second : nullptr;
        table[name] = v;
        body();
        if (had) table[name] = old;
        else table.erase(name);
    }

    llvm::FunctionCallee runtime(const char *name, llvm::Type *ret, std::vector<llvm::Type *> args) {
        return module_.getOrInsertFunction(name, llvm::FunctionType::get(ret, args, false));
    }
    // The user_context argument, passed to every runtime call (it carries the arena).
    Value *user_context_ = nullptr;
    Value *null_ctx() { return user_context_; }

    // Frees live heap buffers and returns code from the function.
    void emit_return_error(Value *code) {
        auto free_fn = runtime("halo_free", builder_.getVoidTy(), {builder_.getPtrTy(), builder_.getPtrTy()});
        for (auto it = heap_allocations_.rbegin(); it != heap_allocations_.rend(); ++it) {
            builder_.CreateCall(free_fn, {null_ctx(), *it});
        }
        builder_.CreateRet(code);
    }

    // Branches to a new block that returns code if cond is false; continues otherwise.
    void check_or_return(Value *ok, const std::function<Value *()> &error_code) {
        auto *fail = llvm::BasicBlock::Create(ctx_, "check_failed", function_);
        auto *pass = llvm::BasicBlock::Create(ctx_, "check_passed", function_);
        builder_.CreateCondBr(ok, pass, fail,
                              llvm::MDBuilder(ctx_).createBranchWeights(1 << 20, 1));
        builder_.SetInsertPoint(fail);
        emit_return_error(error_code());
        builder_.SetInsertPoint(pass);
    }

    Value *broadcast(Value *v, int lanes) {
        return lanes > 1 ? builder_.CreateVectorSplat(lanes, v) : v;
    }

    void unpack_buffer(const std::string &name, Value *buf, Type type, int dims);
    void check_outputs_disjoint(const std::vector<std::pair<std::string, Value *>> &outputs,
                                const std::vector<std::pair<std::string, Value *>> &inputs);
    std::set<std::string> strided_buffers_;  // inputs and outputs whose dimension 0 need not be dense
    std::map<std::string, int> host_alignments_;  // set_host_alignment of inputs and outputs

    // ---- expressions
    void visit(const IntImm *op) override {
        value_ = llvm::ConstantInt::get(llvm_type(op->type), uint64_t(op->value), true);
    }
    void visit(const UIntImm *op) override {
        value_ = llvm::ConstantInt::get(llvm_type(op->type), op->value, false);
    }
    void visit(const FloatImm *op) override {
        value_ = llvm::ConstantFP::get(llvm_type(op->type), op->value);
    }
    void visit(const StringImm *op) override {
        value_ = builder_.CreateGlobalStringPtr(op->value, "str");
    }
    void visit(const Variable *op) override {
        auto it = symbols_.find(op->name);
        internal_assert(it != symbols_.end()) << "codegen: unknown variable " << op->name;
        value_ = it->second;
    }
    void visit(const Cast *op) override {
        Value *v = codegen(op->value);
        Type from = op->value.type(), to = op->type;
        llvm::Type *t = llvm_type(to);
        if (from.is_float() && to.is_float()) {
            value_ = builder_.CreateFPCast(v, t);
        } else if (from.is_float()) {
            // Rounds toward zero and saturates to the target's range; NaN gives 0. A value known
            // to be in range (a clamp by constants) converts with the plain instruction.
            if (float_fits_integer(op->value, to)) {
                value_ = to.is_uint() ? builder_.CreateFPToUI(v, t) : builder_.CreateFPToSI(v, t);
            } else {
                value_ = saturating_float_to_int(v, from, to);
            }
        } else if (to.is_float()) {
            value_ = from.is_int() ? builder_.CreateSIToFP(v, t) : builder_.CreateUIToFP(v, t);
        } else {
            value_ = builder_.CreateIntCast(v, t, from.is_int());
        }
    }
    void visit(const Add *op) override {
        Value *a = codegen(op->a), *b = codegen(op->b);
        value_ = op->type.is_float() ? builder_.CreateFAdd(a, b) : builder_.CreateAdd(a, b);
    }
    void visit(const Sub *op) override {
        Value *a = codegen(op->a), *b = codegen(op->b);
        value_ = op->type.is_float() ? builder_.CreateFSub(a, b) : builder_.CreateSub(a, b);
    }
    void visit(const Mul *op) override {
        Value *a = codegen(op->a), *b = codegen(op->b);
        value_ = op->type.is_float() ? builder_.CreateFMul(a, b) : builder_.CreateMul(a, b);
    }
    // float -> integer, rounding toward zero, saturating, NaN -> 0. Scalars use LLVM's
    // saturating conversion; vectors clamp in floating point first, because LLVM turns a
    // vector llvm.fptosi.sat into one scalar conversion per lane on x86.
    Value *saturating_float_to_int(Value *v, Type from, Type to) {
        llvm::Type *t = llvm_type(to);
        if (to.lanes() == 1) {
            return builder_.CreateIntrinsic(to.is_uint() ? llvm::Intrinsic::fptoui_sat : llvm::Intrinsic::fptosi_sat,
                                            {t, v->getType()}, {v});
        }
        llvm::Type *ft = v->getType();
        // [lo, top) is the range of to; hi is the largest value of from's type below top.
        double lo = to.is_int() ? -std::ldexp(1.0, to.bits() - 1) : 0.0;
        double top = std::ldexp(1.0, to.is_int() ? to.bits() - 1 : to.bits());
        double hi = from.bits() == 32 ? double(std::nextafter(float(top), 0.0f)) : std::nextafter(top, 0.0);
        Value *lo_v = llvm::ConstantFP::get(ft, lo), *hi_v = llvm::ConstantFP::get(ft, hi);
        // max then min, in the form of the x86 instructions: a NaN becomes lo
        Value *c = builder_.CreateSelect(builder_.CreateFCmpOGT(v, lo_v), v, lo_v);
        c = builder_.CreateSelect(builder_.CreateFCmpOLT(c, hi_v), c, hi_v);
        Value *r = to.is_int() ? builder_.CreateFPToSI(c, t) : builder_.CreateFPToUI(c, t);
        if (hi < top - 1) {
            // The float below top truncates to less than the type's maximum.
            uint64_t max = to.is_int() ? uint64_t(to.max_int()) : to.max_uint();
            Value *above = builder_.CreateFCmpOGE(v, llvm::ConstantFP::get(ft, top));
            r = builder_.CreateSelect(above, llvm::ConstantInt::get(t, max), r);
        }
        if (to.is_int()) {
            // NaN: 0 (lo is 0 for unsigned types already)
            r = builder_.CreateSelect(builder_.CreateFCmpUNO(v, v), llvm::Constant::getNullValue(t), r);
        }
        return r;
    }

    // The value of a constant integer scalar or splat vector, if v is one.
    static const llvm::APInt *splat_constant(Value *v) {
        if (auto c = llvm::dyn_cast<llvm::ConstantInt>(v)) return &c->getValue();
        if (auto c = llvm::dyn_cast<llvm::Constant>(v); c && v->getType()->isVectorTy()) {
            if (auto s = llvm::dyn_cast_or_null<llvm::ConstantInt>(c->getSplatValue())) return &s->getValue();
        }
        return nullptr;
    }
    // Is e (a float) certainly not NaN and, rounded toward zero, inside the integer type t?
    // Recognises clamps by constants (min/max as emitted here: min(x, c) is c for a NaN x,
    // max(x, c) is x) and conversions from integer types.
    static bool float_fits_integer(const Expr &e, Type t) {
        double lo, hi;
        if (!float_range(e, &lo, &hi)) return false;
        double low_limit = t.is_int() ? -std::ldexp(1.0, t.bits() - 1) - 1 : -1;
        double high_limit = t.is_int() ? std::ldexp(1.0, t.bits() - 1) : std::ldexp(1.0, t.bits());
        return lo > low_limit && hi < high_limit;
    }
    // Bounds of a float expression that is never NaN; false if unknown or possibly NaN.
    static bool float_range(const Expr &e, double *lo, double *hi) {
        if (auto f = e.as<FloatImm>()) {
            *lo = *hi = f->value;
            return !std::isnan(f->value);
        }
        if (auto b = e.as<Broadcast>()) return float_range(b->value, lo, hi);
        if (auto c = e.as<Cast>(); c && !c->value.type().is_float()) {
            Type from = c->value.type();
            *lo = double(from.min_int());
            *hi = from.is_uint() ? double(from.max_uint()) : double(from.max_int());
            // The conversion rounds: int32 2^31 - 1 is the float32 2^31.
            if (c->type.bits() == 32) *lo = double(float(*lo)), *hi = double(float(*hi));
            return true;
        }
        double alo, ahi, blo, bhi;
        if (auto m = e.as<Min>()) {
            // select(a < b, a, b): b when a is NaN
            if (!float_range(m->b, &blo, &bhi)) return false;
            *hi = bhi;
            *lo = float_range(m->a, &alo, &ahi) ? std::min(alo, blo) : -INFINITY;
            return true;
        }
        if (auto m = e.as<Max>()) {
            // select(a < b, b, a): a when a is NaN
            if (!float_range(m->a, &alo, &ahi)) return false;
            bool b_known = float_range(m->b, &blo, &bhi);
            *lo = b_known ? std::max(alo, blo) : alo;
            *hi = b_known ? std::max(ahi, bhi) : INFINITY;
            return true;
        }
        return false;
    }

    // Integer division and modulo are Euclidean (the remainder is in [0, |b|)); x / 0 and
    // x % 0 are 0; MIN / -1 wraps to MIN and MIN % -1 is 0 (where the hardware would fault).
    // Euclidean quotient and remainder for a divisor that is neither 0 nor -1.
    Value *euclidean_sdiv(Value *a, Value *b) {
        Value *zero = llvm::Constant::getNullValue(a->getType());
        Value *one = llvm::ConstantInt::get(a->getType(), 1);
        Value *q = builder_.CreateSDiv(a, b);
        Value *r = builder_.CreateSRem(a, b);
        // r < 0: step q away from zero in the direction that makes r non-negative
        Value *r_neg = builder_.CreateICmpSLT(r, zero);
        Value *b_pos = builder_.CreateICmpSGT(b, zero);
        Value *adj = builder_.CreateSelect(b_pos, llvm::Constant::getAllOnesValue(a->getType()), one);
        return builder_.CreateAdd(q, builder_.CreateSelect(r_neg, adj, zero));
    }
    Value *euclidean_smod(Value *a, Value *b) {
        Value *zero = llvm::Constant::getNullValue(a->getType());
        Value *r = builder_.CreateSRem(a, b);
        Value *abs_b = builder_.CreateSelect(builder_.CreateICmpSLT(b, zero), builder_.CreateNeg(b), b);
        return builder_.CreateAdd(r, builder_.CreateSelect(builder_.CreateICmpSLT(r, zero), abs_b, zero));
    }
    // For a run-time divisor: whether it is one the division instruction cannot take (0, or
    // -1 for signed types), and a safe divisor (1 in its place). The safe divisor is a max of
    // the frozen divisor, not a select: LLVM's x86 backend turns udiv(x, select(c, 1, y)) into
    // select(c, x, udiv(x, y)) on vectors, dividing every lane by y, and instcombine rewrites
    // max(select(c, y, 0), 1) into exactly that shape when it knows y != 0 where c holds (y
    // being poison elsewhere, e.g. a shift by the bit width). max(freeze(b), 1) is at least 1
    // whatever the bits, and the freeze keeps the max from being folded into the select.
    std::pair<Value *, Value *> guard_divisor(Value *&b, bool is_signed) {
        b = builder_.CreateFreeze(b);
        Value *one = llvm::ConstantInt::get(b->getType(), 1);
        if (!is_signed) {
            Value *bad = builder_.CreateICmpEQ(b, llvm::Constant::getNullValue(b->getType()));
            return {bad, builder_.CreateBinaryIntrinsic(llvm::Intrinsic::umax, b, one)};
        }
        // b in {-1, 0} <=> b + 1 <= 1 (unsigned); umax(b + 1, 2) - 1 is b, or 1 for those
        Value *b1 = builder_.CreateAdd(b, one);
        Value *bad = builder_.CreateICmpULE(b1, one);
        Value *two = llvm::ConstantInt::get(b->getType(), 2);
        return {bad, builder_.CreateSub(builder_.CreateBinaryIntrinsic(llvm::Intrinsic::umax, b1, two), one)};
    }
    void visit(const Div *op) override {
        Value *a = codegen(op->a), *b = codegen(op->b);
        Type t = op->type;
        if (t.is_float()) {
            value_ = builder_.CreateFDiv(a, b);
            return;
        }
        Value *zero = llvm::Constant::getNullValue(a->getType());
        if (const llvm::APInt *c = splat_constant(b)) {
            // A constant divisor needs no guard (and divides by multiplication).
            if (c->isZero()) value_ = zero;
            else if (t.is_int() && c->isAllOnes()) value_ = builder_.CreateNeg(a);  // wraps for MIN
            else value_ = t.is_uint() ? builder_.CreateUDiv(a, b) : euclidean_sdiv(a, b);
            return;
        }
        auto [bad, safe_b] = guard_divisor(b, t.is_int());
        if (t.is_uint()) {
            value_ = builder_.CreateSelect(bad, zero, builder_.CreateUDiv(a, safe_b));
        } else {
            // b is 0 or -1 (all bits clear or set): -a & b is the answer for both
            Value *special = builder_.CreateAnd(builder_.CreateNeg(a), b);
            value_ = builder_.CreateSelect(bad, special, euclidean_sdiv(a, safe_b));
        }
    }
    void visit(const Mod *op) override {
        Value *a = codegen(op->a), *b = codegen(op->b);
        Type t = op->type;
        if (t.is_float()) {
            // a - b * floor(a / b), each step rounded: no fused multiply-add here, whose exact
            // product could give a remainder far from the reference's (1e10f % 7.0f: 256, not 0).
            Value *q = builder_.CreateFDiv(a, b);
            Value *fl = builder_.CreateUnaryIntrinsic(llvm::Intrinsic::floor, q);
            llvm::IRBuilderBase::FastMathFlagGuard guard(builder_);
            builder_.setFastMathFlags(llvm::FastMathFlags());
            value_ = builder_.CreateFSub(a, builder_.CreateFMul(b, fl));
            return;
        }
        if (const llvm::APInt *c = splat_constant(b)) {
            if (c->isZero() || (t.is_int() && c->isAllOnes())) value_ = llvm::Constant::getNullValue(a->getType());
            else value_ = t.is_uint() ? builder_.CreateURem(a, b) : euclidean_smod(a, b);
            return;
        }
        // x % 1 == 0, which is also the answer for the divisors replaced by 1
        Value *safe_b = guard_divisor(b, t.is_int()).second;
        value_ = t.is_uint() ? builder_.CreateURem(a, safe_b) : euclidean_smod(a, safe_b);
    }
    // An integer constant (scalar or broadcast), if e is one.
    static const int64_t *int_constant(const Expr &e) {
        if (auto b = e.as<Broadcast>()) return as_const_int(b->value);
        return as_const_int(e);
    }
    // clamp(cast<int>(f), lo, hi) for a float f and constant bounds, i.e. max(min(c, hi), lo) or
    // min(max(c, lo), hi) of c = cast(f): clamping in floating point first makes the plain
    // conversion exact, so no saturation code is needed. A NaN f must give clamp(0, lo, hi),
    // which the order of the float clamp provides when lo >= 0 or hi <= 0.
    bool clamped_float_to_int(const Expr &ea, const Expr &eb, Type t, bool is_min) {
        if (t.is_float()) return false;
        const int64_t *outer = int_constant(eb);
        const Expr *inner_a = nullptr, *inner_b = nullptr;
        if (auto m = ea.as<Min>(); m && !is_min) inner_a = &m->a, inner_b = &m->b;
        if (auto m = ea.as<Max>(); m && is_min) inner_a = &m->a, inner_b = &m->b;
        if (!outer || !inner_a) return false;
        const int64_t *inner = int_constant(*inner_b);
        auto c = inner_a->as<Cast>();
        if (!inner || !c || !c->value.type().is_float()) return false;
        int64_t lo = is_min ? *inner : *outer, hi = is_min ? *outer : *inner;
        Type ft = c->value.type();
        double exact = std::ldexp(1.0, ft.bits() == 32 ? 24 : 53);
        if (lo > hi || double(lo) < -exact || double(hi) > exact || (lo < 0 && hi > 0)) return false;
        Value *f = codegen(c->value);
        Value *lo_v = llvm::ConstantFP::get(f->getType(), double(lo)), *hi_v = llvm::ConstantFP::get(f->getType(), double(hi));
        Value *r;
        if (lo >= 0) {
            // NaN -> lo, which is clamp(0, lo, hi)
            r = builder_.CreateSelect(builder_.CreateFCmpOGT(f, lo_v), f, lo_v);
            r = builder_.CreateSelect(builder_.CreateFCmpOLT(r, hi_v), r, hi_v);
        } else {
            // NaN -> hi (<= 0)
            r = builder_.CreateSelect(builder_.CreateFCmpOLT(f, hi_v), f, hi_v);
            r = builder_.CreateSelect(builder_.CreateFCmpOGT(r, lo_v), r, lo_v);
        }
        llvm::Type *it = llvm_type(t);
        value_ = t.is_uint() ? builder_.CreateFPToUI(r, it) : builder_.CreateFPToSI(r, it);
        return true;
    }
    // Float min and max with x86's instructions (minps, maxps and their scalar, 256- and
    // 512-bit forms), whose results are exactly Halo's: min(a, b) is a < b ? a : b, which is
    // minps(a, b), and max(a, b) is a < b ? b : a, which is maxps(b, a) (b > a ? b : a; x86
    // gives the second operand when either is NaN or they are equal). Written as selects, LLVM 19's
    // InstCombine recognises a min (once one operand is known not to be NaN, a constant say)
    // and folds min(min(c, e), c) to min(c, e): NaN for a NaN e, where the answer is c (found
    // by the random arithmetic test). The intrinsics are opaque to those folds, and the code
    // generator makes the same instructions of them. Null if the target is not x86 or the type
    // is not 32- or 64-bit float.
    bool has_x86_float_min_max(Type t) const {
        return t.is_float() && (t.bits() == 32 || t.bits() == 64) && tm_.getTargetTriple().isX86();
    }
    Value *x86_float_min_max(Value *a, Value *b, Type t, bool is_min) {
        if (!has_x86_float_min_max(t)) return nullptr;
        if (!is_min) std::swap(a, b);
        const bool f32 = t.bits() == 32;
        const llvm::MCSubtargetInfo *sti = tm_.getMCSubtargetInfo();
        const bool avx512 = sti->checkFeatures("+avx512f"), avx = sti->checkFeatures("+avx");
        namespace X = llvm::Intrinsic;
        if (t.lanes() == 1) {
            // The scalar form works on lane 0 of a 128-bit vector.
            llvm::Type *vt = llvm::FixedVectorType::get(a->getType(), f32 ? 4 : 2);
            Value *va = builder_.CreateInsertElement(llvm::PoisonValue::get(vt), a, uint64_t(0));
            Value *vb = builder_.CreateInsertElement(llvm::PoisonValue::get(vt), b, uint64_t(0));
            X::ID id = f32 ? (is_min ? X::x86_sse_min_ss : X::x86_sse_max_ss) : (is_min ? X::x86_sse2_min_sd : X::x86_sse2_max_sd);
            return builder_.CreateExtractElement(builder_.CreateIntrinsic(id, {}, {va, vb}), uint64_t(0));
        }
        // Pieces of the widest vector the target has, or of the narrowest that holds them all.
        const int lanes_128 = f32 ? 4 : 2;
        const int widest = lanes_128 * (avx512 ? 4 : avx ? 2 : 1);
        int piece = lanes_128;
        while (piece < widest && piece < t.lanes()) piece *= 2;
        auto call = [&](Value *x, Value *y) -> Value * {
            if (piece == lanes_128) {
                X::ID id = f32 ? (is_min ? X::x86_sse_min_ps : X::x86_sse_max_ps) : (is_min ? X::x86_sse2_min_pd : X::x86_sse2_max_pd);
                return builder_.CreateIntrinsic(id, {}, {x, y});
            }
            if (piece == 2 * lanes_128) {
                X::ID id = f32 ? (is_min ? X::x86_avx_min_ps_256 : X::x86_avx_max_ps_256)
                               : (is_min ? X::x86_avx_min_pd_256 : X::x86_avx_max_pd_256);
                return builder_.CreateIntrinsic(id, {}, {x, y});
            }
            X::ID id = f32 ? (is_min ? X::x86_avx512_min_ps_512 : X::x86_avx512_max_ps_512)
                           : (is_min ? X::x86_avx512_min_pd_512 : X::x86_avx512_max_pd_512);
            return builder_.CreateIntrinsic(id, {}, {x, y, builder_.getInt32(4)});  // 4: the current rounding
        };
        // Lanes [first, first + piece) of v, past its end poison.
        auto lanes_of = [&](Value *v, int first) {
            std::vector<int> mask(piece);
            for (int i = 0; i < piece; i++) mask[i] = first + i < t.lanes() ? first + i : -1;
            return builder_.CreateShuffleVector(v, mask);
        };
        if (piece == t.lanes()) return call(a, b);
        std::vector<Value *> results;
        for (int first = 0; first < t.lanes(); first += piece) results.push_back(call(lanes_of(a, first), lanes_of(b, first)));
        // Concatenate the pieces, then keep the first t.lanes() lanes.
        while (results.size() > 1) {
            std::vector<Value *> joined;
            for (size_t i = 0; i < results.size(); i += 2) {
                Value *x = results[i];
                int n = int(llvm::cast<llvm::FixedVectorType>(x->getType())->getNumElements());
                Value *y = i + 1 < results.size() ? results[i + 1] : llvm::PoisonValue::get(x->getType());
                std::vector<int> mask(2 * n);
                for (int k = 0; k < 2 * n; k++) mask[k] = k;
                joined.push_back(builder_.CreateShuffleVector(x, y, mask));
            }
            results = std::move(joined);
        }
        if (int(llvm::cast<llvm::FixedVectorType>(results[0]->getType())->getNumElements()) == t.lanes()) return results[0];
        std::vector<int> keep(t.lanes());
        for (int k = 0; k < t.lanes(); k++) keep[k] = k;
        return builder_.CreateShuffleVector(results[0], keep);
    }
    void min_max(const Expr &ea, const Expr &eb, Type t, bool is_min) {
        if (clamped_float_to_int(ea, eb, t, is_min)) return;
        Value *a = codegen(ea), *b = codegen(eb);
        if (t.is_float()) {
            if (Value *x86 = x86_float_min_max(a, b, t, is_min)) {
                value_ = x86;
                return;
            }
            Value *lt = builder_.CreateFCmpOLT(a, b);
            value_ = is_min ? builder_.CreateSelect(lt, a, b) : builder_.CreateSelect(lt, b, a);
            return;
        }
        llvm::Intrinsic::ID id = t.is_uint() ? (is_min ? llvm::Intrinsic::umin : llvm::Intrinsic::umax)
                                             : (is_min ? llvm::Intrinsic::smin : llvm::Intrinsic::smax);
        value_ = builder_.CreateBinaryIntrinsic(id, a, b);
    }
    void visit(const Min *op) override { min_max(op->a, op->b, op->type, true); }
    void visit(const Max *op) override { min_max(op->a, op->b, op->type, false); }
    void compare(const Expr &ea, const Expr &eb, llvm::CmpInst::Predicate fp, llvm::CmpInst::Predicate sp,
                 llvm::CmpInst::Predicate up) {
        Value *a = codegen(ea), *b = codegen(eb);
        Type t = ea.type();
        value_ = t.is_float() ? builder_.CreateFCmp(fp, a, b)
                              : builder_.CreateICmp(t.is_int() ? sp : up, a, b);
    }
    void visit(const EQ *op) override {
        compare(op->a, op->b, llvm::CmpInst::FCMP_OEQ, llvm::CmpInst::ICMP_EQ, llvm::CmpInst::ICMP_EQ);
    }
    void visit(const NE *op) override {
        compare(op->a, op->b, llvm::CmpInst::FCMP_UNE, llvm::CmpInst::ICMP_NE, llvm::CmpInst::ICMP_NE);
    }
    void visit(const LT *op) override {
        compare(op->a, op->b, llvm::CmpInst::FCMP_OLT, llvm::CmpInst::ICMP_SLT, llvm::CmpInst::ICMP_ULT);
    }
    void visit(const LE *op) override {
        compare(op->a, op->b, llvm::CmpInst::FCMP_OLE, llvm::CmpInst::ICMP_SLE, llvm::CmpInst::ICMP_ULE);
    }
    void visit(const GT *op) override {
        compare(op->a, op->b, llvm::CmpInst::FCMP_OGT, llvm::CmpInst::ICMP_SGT, llvm::CmpInst::ICMP_UGT);
    }
    void visit(const GE *op) override {
        compare(op->a, op->b, llvm::CmpInst::FCMP_OGE, llvm::CmpInst::ICMP_SGE, llvm::CmpInst::ICMP_UGE);
    }
    void visit(const And *op) override {
        Value *a = codegen(op->a), *b = codegen(op->b);
        value_ = builder_.CreateAnd(a, b);
    }
    void visit(const Or *op) override {
        Value *a = codegen(op->a), *b = codegen(op->b);
        value_ = builder_.CreateOr(a, b);
    }
    void visit(const Not *op) override { value_ = builder_.CreateNot(codegen(op->a)); }
    // A float select that is a min or a max (select(a < b, a, b), select(a > b, a, b) and
    // their swaps) is made as one, for the reason x86_float_min_max gives: LLVM's InstCombine
    // folds nested such selects wrongly when a NaN may come in. (Selects on <= and >= have no
    // one x86 instruction: fenced_min_max_condition covers them.)
    bool select_as_min_max(const Select *op) {
        if (!has_x86_float_min_max(op->true_value.type())) return false;
        Expr a, b;
        bool less;
        if (auto lt = op->condition.as<LT>()) a = lt->a, b = lt->b, less = true;
        else if (auto gt = op->condition.as<GT>()) a = gt->a, b = gt->b, less = false;
        else return false;
        bool a_first = equal(op->true_value, a) && equal(op->false_value, b);
        if (!a_first && !(equal(op->true_value, b) && equal(op->false_value, a))) return false;
        // Made once here, where the select evaluates each twice: not for operands that print
        // or check something (each evaluation does).
        struct SideEffects : IRVisitor {
            bool found = false;
            using IRVisitor::visit;
            void visit(const Call *c) override {
                found |= c->may_have_side_effects();
                IRVisitor::visit(c);
            }
        } effects;
        a.accept(&effects);
        b.accept(&effects);
        if (effects.found) return false;
        // a < b ? a : b is min(a, b), a < b ? b : a is max(a, b); a > b ? a : b is b < a ? a : b,
        // max(b, a), and a > b ? b : a is min(b, a).
        bool is_min = less == a_first;
        Value *x = codegen(less ? a : b), *y = codegen(less ? b : a);
        value_ = x86_float_min_max(x, y, op->true_value.type(), is_min);
        return true;
    }
    // The condition of a float select on <= or >= whose arms are the compared operands
    // (select(a <= b, a, b), select(a >= b, b, a)...), with the operands passed through
    // llvm.arithmetic.fence, an identity that costs a register copy at most. LLVM matches such
    // a select as a min or max (given an operand known not to be NaN) and folds nested ones as
    // if no NaN could come in: select(select(2 <= e, 2, e) <= 2, select(2 <= e, 2, e), 2) became
    // the inner select, NaN for a NaN e where the answer is 2. No one x86 instruction has these
    // selects' NaN and signed-zero results (select_as_min_max takes < and >), so the compare
    // is hidden from the match instead. Null where the select is not of that shape.
    Value *fenced_min_max_condition(const Select *op) {
        if (!has_x86_float_min_max(op->true_value.type())) return nullptr;
        Expr a, b;
        llvm::CmpInst::Predicate pred;
        if (auto le = op->condition.as<LE>()) a = le->a, b = le->b, pred = llvm::CmpInst::FCMP_OLE;
        else if (auto ge = op->condition.as<GE>()) a = ge->a, b = ge->b, pred = llvm::CmpInst::FCMP_OGE;
        else return nullptr;
        if (!(equal(op->true_value, a) && equal(op->false_value, b)) && !(equal(op->true_value, b) && equal(op->false_value, a))) {
            return nullptr;
        }
        Value *va = codegen(a), *vb = codegen(b);
        auto fence = [&](Value *v) { return builder_.CreateIntrinsic(llvm::Intrinsic::arithmetic_fence, {v->getType()}, {v}); };
        return builder_.CreateFCmp(pred, fence(va), fence(vb));
    }
    void visit(const Select *op) override {
        if (select_as_min_max(op)) return;
        Value *c = fenced_min_max_condition(op);
        if (!c) c = codegen(op->condition);
        Value *t = codegen(op->true_value), *f = codegen(op->false_value);
        value_ = builder_.CreateSelect(c, t, f);
    }
    void visit(const Ramp *op) override {
        Value *base = broadcast(codegen(op->base), op->lanes);
        Value *stride = broadcast(codegen(op->stride), op->lanes);
        std::vector<llvm::Constant *> steps;
        llvm::Type *et = llvm_type(op->base.type());
        for (int i = 0; i < op->lanes; i++) {
            steps.push_back(et->isFloatingPointTy() ? llvm::ConstantFP::get(et, i) : llvm::ConstantInt::get(et, i));
        }
        Value *iota = llvm::ConstantVector::get(steps);
        if (et->isFloatingPointTy()) value_ = builder_.CreateFAdd(base, builder_.CreateFMul(stride, iota));
        else value_ = builder_.CreateAdd(base, builder_.CreateMul(stride, iota));
    }
    void visit(const Broadcast *op) override {
        if (Expr vector_op = as_min_max_of_broadcasts(op); vector_op.defined()) {
            value_ = codegen(vector_op);
            return;
        }
        value_ = broadcast(codegen(op->value), op->lanes);
    }
    // A broadcast of the min or max of a scalar float load and a loop invariant (or another
    // load), as the min or max of broadcasts (undefined where it does not apply). A 32- or
    // 64-bit element loads into all lanes for free (vbroadcastss from memory, AVX-512's {1to16}
    // operand), so one vector instruction replaces a scalar one plus a register-to-vector
    // shuffle, which compete with the FMAs for the same ports: cnn_block's second convolution
    // broadcasts the inlined relu of its input, max(conv1[i], 0), 10 times per 48 FMAs (2.4%
    // faster in one interleaved run). Only float min and max: LLVM's InstCombine turns an
    // integer min/max or an arithmetic operation of splats back into the scalar operation and a
    // splat (the compare and select of a float min/max use each splat twice, which it keeps).
    static Expr as_min_max_of_broadcasts(const Broadcast *op) {
        const Type t = op->value.type();
        if (!t.is_float() || (t.bits() != 32 && t.bits() != 64)) return Expr();
        auto leaf = [](const Expr &e) { return e.as<Load>() || e.as<Variable>() || is_const(e); };
        auto on_broadcasts = [&](const auto *bin, auto make) -> Expr {
            if (!bin || !leaf(bin->a) || !leaf(bin->b)) return Expr();
            if (!bin->a.template as<Load>() && !bin->b.template as<Load>()) return Expr();
            return make(Broadcast::make(bin->a, op->lanes), Broadcast::make(bin->b, op->lanes));
        };
        Expr e = on_broadcasts(op->value.as<Max>(), Max::make);
        if (!e.defined()) e = on_broadcasts(op->value.as<Min>(), Min::make);
        return e;
    }

    Value *buffer_pointer(const std::string &name) {
        auto it = buffers_.find(name);
        internal_assert(it != buffers_.end()) << "codegen: unknown buffer " << name;
        return it->second;
    }
    Value *element_pointer(const std::string &name, Type t, Value *index) {
        Value *idx = builder_.CreateSExt(index, builder_.getInt64Ty());
        return builder_.CreateInBoundsGEP(memory_type(t.element_of()), buffer_pointer(name), idx);
    }
    // Accesses to different buffers never alias (outputs are checked at entry not to overlap
    // inputs or each other, and inputs are only read), which lets LLVM keep an accumulator in
    // registers across a reduction loop. Each buffer is a type of its own under one TBAA root:
    // siblings never alias, and a query costs a short walk up the tree. (Scoped noalias
    // metadata said the same with a list of every other buffer on every access, which made
    // alias queries linear in the buffers: a Func of a 100-element Tuple took 11 s to compile.)
    llvm::MDNode *tbaa_root_ = nullptr;
    std::map<std::string, llvm::MDNode *> tbaa_tags_;
    void annotate(llvm::Instruction *inst, const std::string &buffer) {
        if (!inst) return;
        llvm::MDBuilder md(ctx_);
        if (!tbaa_root_) tbaa_root_ = md.createTBAARoot("halo buffers");
        llvm::MDNode *&tag = tbaa_tags_[buffer];
        if (!tag) {
            llvm::MDNode *type = md.createTBAAScalarTypeNode(buffer, tbaa_root_);
            tag = md.createTBAAStructTagNode(type, type, 0);
        }
        inst->setMetadata(llvm::LLVMContext::MD_tbaa, tag);
    }
    static const Ramp *dense_ramp(const Expr &index, int64_t *stride) {
        auto r = index.as<Ramp>();
        if (!r) return nullptr;
        auto s = as_const_int(r->stride);
        if (!s) return nullptr;
        *stride = *s;
        return r;
    }
    void visit(const Load *op) override {
        Type t = op->type;
        int lanes = t.lanes();
        llvm::Type *elem = memory_type(t.element_of());
        unsigned align = t.bytes();
        int64_t stride = 0;
        if (atomic_snapshot_.buffer == op->name) {
            load_in_atomic_update(op);
            return;
        }
        if (lanes == 1) {
            llvm::LoadInst *load = builder_.CreateAlignedLoad(elem, element_pointer(op->name, t, codegen(op->index)),
                                                              llvm::Align(align));
            if (locked_buffers_.count(op->name)) load->setAtomic(llvm::AtomicOrdering::Monotonic);
            value_ = load;
        } else if (auto b = op->index.as<Broadcast>()) {
            Value *s = builder_.CreateAlignedLoad(elem, element_pointer(op->name, t, codegen(b->value)),
                                                  llvm::Align(align));
            value_ = broadcast(s, lanes);
        } else if (auto r = dense_ramp(op->index, &stride); r && stride >= 1 && stride <= 4) {
            // Dense (or small-stride) access: one wide load, then pick every stride-th lane.
            int span = int((lanes - 1) * stride + 1);
            Value *ptr = element_pointer(op->name, t, codegen(r->base));
            Value *wide = builder_.CreateAlignedLoad(llvm::FixedVectorType::get(elem, span), ptr,
                                                     llvm::Align(align));
            if (stride == 1) {
                value_ = wide;
            } else {
                std::vector<int> mask;
                for (int i = 0; i < lanes; i++) mask.push_back(int(i * stride));
                value_ = builder_.CreateShuffleVector(wide, mask);
            }
        } else {
            Value *idx = builder_.CreateSExt(codegen(op->index),
                                             llvm::FixedVectorType::get(builder_.getInt64Ty(), lanes));
            Value *ptrs = builder_.CreateInBoundsGEP(elem, buffer_pointer(op->name), idx);
            value_ = builder_.CreateMaskedGather(llvm::FixedVectorType::get(elem, lanes), ptrs,
                                                 llvm::Align(align));
        }
        annotate_last_memory_op(op->name);
        if (t.is_bool()) value_ = builder_.CreateTrunc(value_, llvm_type(t));
    }
    // Annotates the memory instruction just emitted (a load, store, gather or scatter).
    void annotate_last_memory_op(const std::string &buffer) {
        auto *bb = builder_.GetInsertBlock();
        for (auto it = bb->rbegin(); it != bb->rend(); ++it) {
            llvm::Instruction &inst = *it;
            if (llvm::isa<llvm::LoadInst>(inst) || llvm::isa<llvm::StoreInst>(inst) ||
                llvm::isa<llvm::CallInst>(inst)) {
                if (llvm::isa<llvm::LoadInst>(inst) || llvm::isa<llvm::StoreInst>(inst) ||
                    llvm::cast<llvm::CallInst>(inst).getIntrinsicID() != llvm::Intrinsic::not_intrinsic) {
                    annotate(&inst, buffer);
                }
                return;
            }
        }
    }
    void visit(const Call *op) override;
    Value *print(const Call *op);
    Value *call_extern_c(const Call *op);
    std::pair<Value *, Value *> print_arrays(const std::vector<Expr> &args, const std::vector<Value *> &vals, Value *lane);
    Value *require(const Call *op);
    void visit(const Let *op) override {
        Value *v = codegen(op->value);
        with_symbol(symbols_, op->name, v, [&] { value_ = codegen(op->body); });
    }

    // ---- statements
    void visit(const LetStmt *op) override {
        Value *v = codegen(op->value);
        v->setName(op->name);
        with_symbol(symbols_, op->name, v, [&] { codegen(op->body); });
    }
    void visit(const AssertStmt *op) override {
        Value *ok = codegen(op->condition);
        check_or_return(ok, [&] { return codegen(op->message); });
    }
    void visit(const ProducerConsumer *op) override { codegen(op->body); }
    void visit(const For *op) override;
    // Stage::atomic's stores: a compare-and-swap loop. The value is computed from a snapshot of
    // the element (a load of that element inside the value reads the snapshot, see
    // load_in_atomic_update) and stored only if the element still holds the snapshot; else the
    // snapshot becomes what it holds now and the value is computed again. Relaxed ordering:
    // the updates of a reduction need no order among themselves, and the threads of a
    // parallel loop are joined before anything reads the result.
    struct AtomicSnapshot {
        std::string buffer;       // "" outside an atomic store
        Expr index;
        Value *address = nullptr;
        Value *value = nullptr;  // the snapshot, of the value's type
    };
    AtomicSnapshot atomic_snapshot_;
    void store_atomically(const Store *op) {
        Type t = op->value.type();
        internal_assert(t.lanes() == 1) << "codegen: an atomic store of " << t.lanes() << " lanes to " << op->name;
        internal_assert(atomic_snapshot_.buffer.empty()) << "codegen: an atomic store inside the value of another";
        llvm::Type *mem = memory_type(t);
        llvm::Type *bits = builder_.getIntNTy(unsigned(t.is_bool() ? 8 : t.bits()));
        const llvm::Align align(t.bytes());
        Value *address = element_pointer(op->name, t, codegen(op->index));
        llvm::LoadInst *first = builder_.CreateAlignedLoad(bits, address, align);
        first->setAtomic(llvm::AtomicOrdering::Monotonic);
        annotate(first, op->name);
        llvm::BasicBlock *entry = builder_.GetInsertBlock();
        auto *retry = llvm::BasicBlock::Create(ctx_, "atomic_update", function_);
        auto *done = llvm::BasicBlock::Create(ctx_, "atomic_done", function_);
        builder_.CreateBr(retry);
        builder_.SetInsertPoint(retry);
        llvm::PHINode *snapshot = builder_.CreatePHI(bits, 2);
        snapshot->addIncoming(first, entry);
        Value *snapshot_value = builder_.CreateBitCast(snapshot, mem);
        if (t.is_bool()) snapshot_value = builder_.CreateTrunc(snapshot_value, llvm_type(t));
        atomic_snapshot_ = {op->name, op->index, address, snapshot_value};
        Value *v = codegen(op->value);
        atomic_snapshot_ = AtomicSnapshot();
        if (t.is_bool()) v = builder_.CreateZExt(v, mem);
        Value *desired = builder_.CreateBitCast(v, bits);
        llvm::AtomicCmpXchgInst *cas = builder_.CreateAtomicCmpXchg(
            address, snapshot, desired, align, llvm::AtomicOrdering::Monotonic, llvm::AtomicOrdering::Monotonic);
        annotate(cas, op->name);
        Value *current = builder_.CreateExtractValue(cas, 0);
        Value *stored = builder_.CreateExtractValue(cas, 1);
        snapshot->addIncoming(current, builder_.GetInsertBlock());
        builder_.CreateCondBr(stored, done, retry);
        builder_.SetInsertPoint(done);
    }
    // The buffers of a Tuple whose point is being updated under its lock (Call::atomic_lock):
    // their loads and stores there are atomic (relaxed), because an update given atomic(true)
    // may read points that other threads update under other locks.
    std::set<std::string> locked_buffers_;
    void atomic_lock_or_unlock(const Call *op, bool lock) {
        const Load *point = op->args[0].as<Load>();
        internal_assert(point && point->type.lanes() == 1) << "codegen: " << op->name << " of something other than a scalar load";
        internal_assert(lock == locked_buffers_.empty()) << "codegen: " << op->name << " inside another atomic update";
        Value *address = element_pointer(point->name, point->type, codegen(point->index));
        llvm::Type *ptr = builder_.getPtrTy();
        builder_.CreateCall(runtime(lock ? "halo_atomic_lock" : "halo_atomic_unlock", builder_.getVoidTy(), {ptr}), {address});
        for (auto &a : op->args) {
            const Load *l = a.as<Load>();
            internal_assert(l) << "codegen: " << op->name << " of something other than loads";
            if (lock) locked_buffers_.insert(l->name);
            else locked_buffers_.erase(l->name);
        }
        value_ = builder_.getInt32(0);
    }
    // A load of the buffer an atomic store updates, inside the value stored: the snapshot where
    // it reads the element updated, else the element (atomically: another thread may be
    // updating it; only an update given atomic(true) reads other elements of its Func).
    void load_in_atomic_update(const Load *op) {
        Type t = op->type;
        internal_assert(t.lanes() == 1) << "codegen: a vector load of " << op->name << " in its atomic update";
        if (equal(op->index, atomic_snapshot_.index)) {  // (the usual case: no load, no compare)
            value_ = atomic_snapshot_.value;
            return;
        }
        Value *address = element_pointer(op->name, t, codegen(op->index));
        llvm::LoadInst *other = builder_.CreateAlignedLoad(memory_type(t), address, llvm::Align(t.bytes()));
        other->setAtomic(llvm::AtomicOrdering::Monotonic);
        annotate(other, op->name);
        Value *element = t.is_bool() ? builder_.CreateTrunc(other, llvm_type(t)) : static_cast<Value *>(other);
        Value *same = builder_.CreateICmpEQ(address, atomic_snapshot_.address);
        value_ = builder_.CreateSelect(same, atomic_snapshot_.value, element);
    }
    void visit(const Store *op) override {
        if (op->atomic) {
            store_atomically(op);
            return;
        }
        Type t = op->value.type();
        Value *v = codegen(op->value);
        if (t.is_bool()) v = builder_.CreateZExt(v, memory_type(t));
        unsigned align = t.bytes();
        int64_t stride = 0;
        // Under a lane-varying store guard, only the lanes of store_mask_ are stored.
        internal_assert(!store_mask_ || t.lanes() == int(llvm::cast<llvm::FixedVectorType>(store_mask_->getType())->getNumElements()))
            << "codegen: a store of " << t.lanes() << " lanes under a vector store guard of another width";
        if (t.lanes() == 1) {
            llvm::StoreInst *store = builder_.CreateAlignedStore(v, element_pointer(op->name, t, codegen(op->index)),
                                                                 llvm::Align(align));
            if (locked_buffers_.count(op->name)) store->setAtomic(llvm::AtomicOrdering::Monotonic);
        } else if (auto r = dense_ramp(op->index, &stride); r && stride == 1) {
            Value *ptr = element_pointer(op->name, t, codegen(r->base));
            if (store_mask_) {
                builder_.CreateMaskedStore(v, ptr, llvm::Align(align), store_mask_);
            } else if (op->nontemporal) {
                // The pass that makes these checked the alignment of the whole vector at run time.
                llvm::StoreInst *store = builder_.CreateAlignedStore(v, ptr, llvm::Align(uint64_t(t.bytes()) * t.lanes()));
                store->setMetadata(llvm::LLVMContext::MD_nontemporal,
                                   llvm::MDNode::get(ctx_, llvm::ConstantAsMetadata::get(builder_.getInt32(1))));
            } else {
                builder_.CreateAlignedStore(v, ptr, llvm::Align(align));
            }
        } else {
            llvm::Type *elem = memory_type(t.element_of());
            Value *idx = builder_.CreateSExt(codegen(op->index),
                                             llvm::FixedVectorType::get(builder_.getInt64Ty(), t.lanes()));
            Value *ptrs = builder_.CreateInBoundsGEP(elem, buffer_pointer(op->name), idx);
            builder_.CreateMaskedScatter(v, ptrs, llvm::Align(align), store_mask_);
        }
        annotate_last_memory_op(op->name);
    }
    void visit(const Allocate *op) override;
    void visit(const Block *op) override {
        codegen(op->first);
        codegen(op->rest);
    }
    // The lanes a vector store guard lets through (store_guard(c) with a vector c), within
    // all the guards around the current statement; null where every store is whole.
    Value *store_mask_ = nullptr;
    void visit(const IfThenElse *op) override {
        Value *c = codegen(op->condition);
        if (op->condition.type().is_vector()) {
            internal_assert(!op->else_case.defined()) << "codegen: an if with a vector condition and an else";
            Value *saved = store_mask_;
            store_mask_ = saved ? builder_.CreateAnd(saved, c) : c;
            codegen(op->then_case);
            store_mask_ = saved;
            return;
        }
        auto *then_bb = llvm::BasicBlock::Create(ctx_, "then", function_);
        auto *else_bb = llvm::BasicBlock::Create(ctx_, "else", function_);
        auto *after = llvm::BasicBlock::Create(ctx_, "after_if", function_);
        builder_.CreateCondBr(c, then_bb, else_bb);
        builder_.SetInsertPoint(then_bb);
        codegen(op->then_case);
        builder_.CreateBr(after);
        builder_.SetInsertPoint(else_bb);
        codegen(op->else_case);
        builder_.CreateBr(after);
        builder_.SetInsertPoint(after);
    }
    void visit(const Evaluate *op) override { codegen(op->value); }

    void parallel_for(const For *op);
    Value *shift(const Call *op, bool left);
};

// a << b and a >> b: amounts of at least the bit width shift everything out (0, or the sign
// fill for >> of a signed a), and a negative (signed) amount shifts the other way. A
// constant amount is a single shift instruction.
Value *CodeGen::shift(const Call *op, bool left) {
    Type t = op->type, bt = op->args[1].type();
    Value *a = codegen(op->args[0]), *b = codegen(op->args[1]);
    llvm::Type *ty = a->getType();
    const unsigned bits = t.bits();
    Value *zero = llvm::Constant::getNullValue(ty);
    if (bt.bits() != t.bits()) {
        // Bring the amount to a's width without changing what it means.
        if (bt.bits() > t.bits()) {
            Value *lim = llvm::ConstantInt::get(b->getType(), bits);
            b = bt.is_int() ? builder_.CreateBinaryIntrinsic(llvm::Intrinsic::smax,
                                                             builder_.CreateBinaryIntrinsic(llvm::Intrinsic::smin, b, lim),
                                                             builder_.CreateNeg(lim))
                            : builder_.CreateBinaryIntrinsic(llvm::Intrinsic::umin, b, lim);
        }
        b = builder_.CreateIntCast(b, ty, bt.is_int());
    }
    if (const llvm::APInt *c = splat_constant(b)) {
        bool l = left;
        uint64_t amount = c->getZExtValue();
        if (bt.is_int() && c->isNegative()) {
            l = !l;
            amount = 0 - uint64_t(c->getSExtValue());
        }
        if (l) return amount >= bits ? zero : builder_.CreateShl(a, llvm::ConstantInt::get(ty, amount));
        if (t.is_int()) return builder_.CreateAShr(a, llvm::ConstantInt::get(ty, std::min<uint64_t>(amount, bits - 1)));
        return amount >= bits ? zero : builder_.CreateLShr(a, llvm::ConstantInt::get(ty, amount));
    }
    Value *width = llvm::ConstantInt::get(ty, bits);
    // a shifted by the unsigned amount m in one direction
    auto shift_by = [&](bool l, Value *m) -> Value * {
        if (!l && t.is_int()) {
            Value *clamped = builder_.CreateBinaryIntrinsic(llvm::Intrinsic::umin, m, llvm::ConstantInt::get(ty, bits - 1));
            return builder_.CreateAShr(a, clamped);
        }
        Value *s = l ? builder_.CreateShl(a, m) : builder_.CreateLShr(a, m);
        return builder_.CreateSelect(builder_.CreateICmpULT(m, width), s, zero);
    };
    if (!bt.is_int()) return shift_by(left, b);
    Value *negative = builder_.CreateICmpSLT(b, zero);
    Value *magnitude = builder_.CreateSelect(negative, builder_.CreateNeg(b), b);  // MIN stays huge
    return builder_.CreateSelect(negative, shift_by(!left, magnitude), shift_by(left, magnitude));
}

// A call of the user's C function (HalideExtern_N) with its C signature: a bool is an i1 and
// narrower integers carry the extension the C calling convention gives them (as clang declares
// them), so the function reads its arguments right. A vector call runs lane by lane.
Value *CodeGen::call_extern_c(const Call *op) {
    auto extension = [](Type t) {
        if (t.is_float() || t.bits() >= 32) return llvm::Attribute::None;
        return t.is_int() ? llvm::Attribute::SExt : llvm::Attribute::ZExt;
    };
    std::vector<llvm::Type *> params;
    for (auto &a : op->args) params.push_back(llvm_type(a.type().element_of()));
    auto *fn_type = llvm::FunctionType::get(llvm_type(op->type.element_of()), params, false);
    llvm::Function *fn = module_.getFunction(op->name);
    if (!fn) {
        fn = llvm::Function::Create(fn_type, llvm::Function::ExternalLinkage, op->name, module_);
        for (size_t i = 0; i < op->args.size(); i++) {
            if (auto kind = extension(op->args[i].type()); kind != llvm::Attribute::None) fn->addParamAttr(unsigned(i), kind);
        }
        if (auto kind = extension(op->type); kind != llvm::Attribute::None) fn->addRetAttr(kind);
        // A pure extern (HalidePureExtern_N) promises no side effects: LLVM may then merge
        // identical calls and hoist a loop-invariant one out of loops that run, as in Halide.
        const ExternFunction *registered = find_extern_function(op->name);
        if (registered && registered->pure) {
            fn->setDoesNotAccessMemory();
            fn->setDoesNotThrow();
            fn->setWillReturn();
        }
    }
    std::vector<Value *> args;
    for (auto &a : op->args) args.push_back(codegen(a));
    const int lanes = op->type.lanes();
    Value *result = lanes > 1 ? llvm::PoisonValue::get(llvm_type(op->type)) : nullptr;
    for (int lane = 0; lane < lanes; lane++) {
        std::vector<Value *> lane_args;
        for (Value *v : args) lane_args.push_back(v->getType()->isVectorTy() ? builder_.CreateExtractElement(v, lane) : v);
        llvm::CallInst *call = builder_.CreateCall(fn_type, fn, lane_args);
        for (size_t i = 0; i < op->args.size(); i++) {
            if (auto kind = extension(op->args[i].type()); kind != llvm::Attribute::None) call->addParamAttr(unsigned(i), kind);
        }
        if (auto kind = extension(op->type); kind != llvm::Attribute::None) call->addRetAttr(kind);
        result = lanes > 1 ? builder_.CreateInsertElement(result, call, lane) : call;
    }
    return result;
}

// print(a, ...) / print_when(c, a, ...): the value of a; the arguments go to halo_print as
// 64-bit slots with their kinds, in arrays on the stack (allocated once, in the entry block).
Value *CodeGen::print(const Call *op) {
    bool when = op->name == Call::print_when;
    size_t first = when ? 1 : 0, count = op->args.size() - first;
    Value *result = codegen(op->args[first]);
    llvm::BasicBlock *after = nullptr;
    if (when) {
        llvm::BasicBlock *then_bb = llvm::BasicBlock::Create(ctx_, "print", function_);
        after = llvm::BasicBlock::Create(ctx_, "after_print", function_);
        builder_.CreateCondBr(codegen(op->args[0]), then_bb, after);
        builder_.SetInsertPoint(then_bb);
    }
    std::vector<Value *> vals{result};
    for (size_t i = 1; i < count; i++) vals.push_back(codegen(op->args[first + i]));
    auto [kinds, values] = print_arrays(std::vector<Expr>(op->args.begin() + long(first), op->args.end()), vals, nullptr);
    llvm::Type *i32 = builder_.getInt32Ty();
    auto fn = runtime("halo_print", builder_.getVoidTy(), {builder_.getPtrTy(), i32, builder_.getPtrTy(), builder_.getPtrTy()});
    builder_.CreateCall(fn, {null_ctx(), llvm::ConstantInt::get(i32, count), kinds, values});
    if (when) {
        builder_.CreateBr(after);
        builder_.SetInsertPoint(after);
    }
    return result;
}

// The arguments of a print() or of a require()'s message, for the runtime: each one's bits
// (as an int64) and kind (halo_print_*) in two arrays on the stack. Of a vector argument, the
// lane `lane` (lane 0 where lane is null).
std::pair<Value *, Value *> CodeGen::print_arrays(const std::vector<Expr> &args, const std::vector<Value *> &vals,
                                                  Value *lane) {
    size_t count = args.size();
    llvm::Type *i64 = builder_.getInt64Ty(), *i32 = builder_.getInt32Ty();
    llvm::IRBuilder<> entry(&function_->getEntryBlock(), function_->getEntryBlock().begin());
    llvm::Type *values_t = llvm::ArrayType::get(i64, count), *kinds_t = llvm::ArrayType::get(i32, count);
    Value *values = entry.CreateAlloca(values_t), *kinds = entry.CreateAlloca(kinds_t);
    for (size_t i = 0; i < count; i++) {
        const Expr &a = args[i];
        Value *v = vals[i];
        if (v->getType()->isVectorTy()) v = builder_.CreateExtractElement(v, lane ? lane : builder_.getInt32(0));
        int kind;
        Value *bits;
        if (a.as<StringImm>()) {
            kind = halo_print_string;
            bits = builder_.CreatePtrToInt(v, i64);
        } else if (a.type().is_float()) {
            kind = a.type().bits() == 64 ? halo_print_double : halo_print_float;
            bits = builder_.CreateBitCast(builder_.CreateFPExt(v, builder_.getDoubleTy()), i64);
        } else if (a.type().is_uint()) {
            kind = halo_print_uint;
            bits = builder_.CreateZExtOrTrunc(v, i64);
        } else {
            kind = halo_print_int;
            bits = builder_.CreateSExtOrTrunc(v, i64);
        }
        builder_.CreateStore(bits, builder_.CreateConstInBoundsGEP2_32(values_t, values, 0, unsigned(i)));
        builder_.CreateStore(llvm::ConstantInt::get(i32, kind), builder_.CreateConstInBoundsGEP2_32(kinds_t, kinds, 0, unsigned(i)));
    }
    return {kinds, values};
}

// require(condition, value, condition_text, func_name, message...): value, after returning
// halo_error_code_requirement_failed (through halo_error_requirement_failed, which reports
// the message) where the condition fails. Of a vector, every lane must hold; the message
// shows the first lane that fails.
Value *CodeGen::require(const Call *op) {
    Value *ok = codegen(op->args[0]);
    Value *all = ok->getType()->isVectorTy() ? builder_.CreateAndReduce(ok) : ok;
    check_or_return(all, [&]() -> Value * {
        Value *lane = nullptr;
        if (auto *vt = llvm::dyn_cast<llvm::FixedVectorType>(ok->getType())) {
            llvm::Type *bits = builder_.getIntNTy(vt->getNumElements());
            Value *failing = builder_.CreateBitCast(builder_.CreateNot(ok), bits);
            lane = builder_.CreateIntrinsic(llvm::Intrinsic::cttz, {bits}, {failing, builder_.getTrue()});
            lane = builder_.CreateZExtOrTrunc(lane, builder_.getInt32Ty());
        }
        std::vector<Expr> message(op->args.begin() + 4, op->args.end());
        std::vector<Value *> vals;
        for (auto &m : message) vals.push_back(codegen(m));
        llvm::Type *i32 = builder_.getInt32Ty(), *ptr = builder_.getPtrTy();
        Value *kinds = llvm::ConstantPointerNull::get(builder_.getPtrTy()), *values = kinds;
        if (!message.empty()) std::tie(kinds, values) = print_arrays(message, vals, lane);
        auto fn = runtime("halo_error_requirement_failed", i32, {ptr, ptr, ptr, i32, ptr, ptr});
        return builder_.CreateCall(fn, {null_ctx(), codegen(op->args[3]), codegen(op->args[2]),
                                        builder_.getInt32(int(message.size())), kinds, values});
    });
    return codegen(op->args[1]);
}

void CodeGen::visit(const Call *op) {
    auto arg = [&](int i) { return codegen(op->args[i]); };
    Type t = op->type;
    if (op->call_type == Call::ExternC) {
        value_ = call_extern_c(op);
        return;
    }
    if (op->call_type == Call::Extern) {
        std::vector<Value *> args{null_ctx()};
        std::vector<llvm::Type *> types{builder_.getPtrTy()};
        for (auto &a : op->args) {
            args.push_back(codegen(a));
            types.push_back(args.back()->getType());
        }
        value_ = builder_.CreateCall(runtime(op->name.c_str(), llvm_type(t), types), args);
        return;
    }
    internal_assert(op->call_type == Call::Intrinsic) << "codegen: call to " << op->name
                                                      << " was not lowered to a load";
    const std::string &n = op->name;
    if (n == Call::strict_float) {
        // No contraction into fused multiply-adds inside it (an fmul and fadd fuse only when
        // both allow it).
        llvm::FastMathFlags saved = builder_.getFastMathFlags();
        builder_.clearFastMathFlags();
        value_ = arg(0);
        builder_.setFastMathFlags(saved);
    } else if (is_value_hint(*op)) {
        value_ = arg(0);
    } else if (n == Call::prefetch) {
        const Load *load = op->args[0].as<Load>();
        internal_assert(load && load->type.lanes() == 1) << "codegen: prefetch of something other than a scalar load";
        // A plain (not inbounds) address: the row ahead may lie past the buffer, and a
        // prefetch of any address is harmless.
        Value *index = builder_.CreateSExt(codegen(load->index), builder_.getInt64Ty());
        Value *ptr = builder_.CreateGEP(memory_type(load->type), buffer_pointer(load->name), index);
        // Into the second-level cache (locality 2, x86's prefetcht1), not the first: the row
        // ahead arrives a whole row of work before it is read, and in L1 it pushed out the
        // rows the consumers were reading. Measured interleaved in one process (medians of
        // 31, 2026-11-30): blur's sliding window 4.17 ms with L1 prefetches, 3.96 without
        // any, 3.08 into L2; harris's 2.82, 3.47 and 2.74.
        builder_.CreateIntrinsic(llvm::Intrinsic::prefetch, {builder_.getPtrTy()},
                                 {ptr, builder_.getInt32(0), builder_.getInt32(2), builder_.getInt32(1)});
        value_ = builder_.getInt32(0);
    } else if (n == Call::is_aligned) {
        const Load *load = op->args[0].as<Load>();
        const int64_t *bytes = as_const_int(op->args[1]);
        internal_assert(load && load->type.lanes() == 1 && bytes && *bytes > 0 && (*bytes & (*bytes - 1)) == 0)
            << "codegen: is_aligned of something other than a scalar load and a power of two";
        Value *index = builder_.CreateSExt(codegen(load->index), builder_.getInt64Ty());
        Value *ptr = builder_.CreateGEP(memory_type(load->type), buffer_pointer(load->name), index);
        Value *low_bits = builder_.CreateAnd(builder_.CreatePtrToInt(ptr, builder_.getInt64Ty()), uint64_t(*bytes - 1));
        value_ = builder_.CreateICmpEQ(low_bits, builder_.getInt64(0));
    } else if (n == Call::atomic_lock || n == Call::atomic_unlock) {
        atomic_lock_or_unlock(op, n == Call::atomic_lock);
    } else if (n == Call::store_fence) {
        builder_.CreateFence(llvm::AtomicOrdering::Release);
        builder_.CreateIntrinsic(llvm::Intrinsic::x86_sse_sfence, {}, {});
        value_ = builder_.getInt32(0);
    } else if (n == Call::print || n == Call::print_when) {
        value_ = print(op);
    } else if (n == Call::require) {
        value_ = require(op);
    } else if (n == Call::random) {
        user_error << "random_float(), random_uint() or random_int() is used outside a Func's definition and an "
                   << "RDom's where() (in a bound, an RDom's range, a Param's range...), where it has no point to "
                   << "depend on; compute it in a Func and read that";
    } else if (n == Call::bitwise_and) {
        value_ = builder_.CreateAnd(arg(0), arg(1));
    } else if (n == Call::bitwise_or) {
        value_ = builder_.CreateOr(arg(0), arg(1));
    } else if (n == Call::bitwise_xor) {
        value_ = builder_.CreateXor(arg(0), arg(1));
    } else if (n == Call::bitwise_not) {
        value_ = builder_.CreateNot(arg(0));
    } else if (n == Call::reinterpret) {
        value_ = builder_.CreateBitCast(arg(0), llvm_type(t));
    } else if (n == Call::popcount) {
        value_ = builder_.CreateUnaryIntrinsic(llvm::Intrinsic::ctpop, arg(0));
    } else if (n == Call::count_leading_zeros || n == Call::count_trailing_zeros) {
        Value *x = arg(0);
        auto id = n == Call::count_leading_zeros ? llvm::Intrinsic::ctlz : llvm::Intrinsic::cttz;
        value_ = builder_.CreateIntrinsic(id, {x->getType()}, {x, builder_.getFalse()});  // defined at 0
    } else if (n == Call::shift_left || n == Call::shift_right) {
        value_ = shift(op, n == Call::shift_left);
    } else if (n == Call::abs) {
        Value *x = arg(0);
        if (op->args[0].type().is_float()) {
            value_ = builder_.CreateUnaryIntrinsic(llvm::Intrinsic::fabs, x);
        } else {
            Value *neg = builder_.CreateICmpSLT(x, llvm::Constant::getNullValue(x->getType()));
            value_ = builder_.CreateSelect(neg, builder_.CreateNeg(x), x);
        }
    } else {
        static const std::map<std::string, llvm::Intrinsic::ID> unary = {
            {"sqrt", llvm::Intrinsic::sqrt},   {"exp", llvm::Intrinsic::exp},
            {"log", llvm::Intrinsic::log},     {"floor", llvm::Intrinsic::floor},
            {"ceil", llvm::Intrinsic::ceil},   {"round", llvm::Intrinsic::roundeven},
            {"trunc", llvm::Intrinsic::trunc}, {"sin", llvm::Intrinsic::sin},
            {"cos", llvm::Intrinsic::cos},
        };
        if (auto it = unary.find(n); it != unary.end()) {
            value_ = builder_.CreateUnaryIntrinsic(it->second, arg(0));
        } else if (n == "pow") {
            value_ = builder_.CreateBinaryIntrinsic(llvm::Intrinsic::pow, arg(0), arg(1));
        } else if (n == "is_nan" || n == "is_inf" || n == "is_finite") {
            Value *x = arg(0);
            Value *inf = llvm::ConstantFP::getInfinity(llvm_type(op->args[0].type()));
            if (n == "is_nan") {
                value_ = builder_.CreateFCmpUNO(x, x);
            } else {
                Value *ax = builder_.CreateUnaryIntrinsic(llvm::Intrinsic::fabs, x);
                value_ = n == "is_inf" ? builder_.CreateFCmpOEQ(ax, inf) : builder_.CreateFCmpONE(ax, inf);
            }
        } else if (is_libm_function(n)) {
            // libm, lane by lane
            bool f32 = t.bits() == 32;
            std::string fn = n + (f32 ? "f" : "");
            llvm::Type *et = llvm_type(t.element_of());
            std::vector<llvm::Type *> types(op->args.size(), et);
            auto callee = module_.getOrInsertFunction(fn, llvm::FunctionType::get(et, types, false));
            std::vector<Value *> args;
            for (size_t i = 0; i < op->args.size(); i++) args.push_back(arg(int(i)));
            if (t.lanes() == 1) {
                value_ = builder_.CreateCall(callee, args);
            } else {
                Value *result = llvm::PoisonValue::get(llvm_type(t));
                for (int l = 0; l < t.lanes(); l++) {
                    std::vector<Value *> lane_args;
                    for (auto *a : args) lane_args.push_back(builder_.CreateExtractElement(a, l));
                    result = builder_.CreateInsertElement(result, builder_.CreateCall(callee, lane_args), l);
                }
                value_ = result;
            }
        } else {
            internal_error << "codegen: unknown intrinsic " << n;
        }
    }
}

void CodeGen::visit(const For *op) {
    if (op->for_type == ForType::Parallel) {
        parallel_for(op);
        return;
    }
    internal_assert(op->for_type == ForType::Serial)
        << "loop " << op->name << " should have been unrolled or vectorized before codegen";
    Value *mn = codegen(op->min), *ex = codegen(op->extent);
    // The loop runs over [min, last] with last = min + extent - 1, which fits in 32 bits for
    // every loop Halo makes (min + extent need not: a loop may end at INT32_MAX).
    Value *one = llvm::ConstantInt::get(mn->getType(), 1);
    Value *last = builder_.CreateSub(builder_.CreateAdd(mn, ex), one);
    auto *pre = builder_.GetInsertBlock();
    auto *loop = llvm::BasicBlock::Create(ctx_, op->name + ".loop", function_);
    auto *after = llvm::BasicBlock::Create(ctx_, op->name + ".end", function_);
    builder_.CreateCondBr(builder_.CreateICmpSGT(ex, llvm::Constant::getNullValue(ex->getType())), loop, after);
    builder_.SetInsertPoint(loop);
    llvm::PHINode *phi = builder_.CreatePHI(mn->getType(), 2, op->name);
    phi->addIncoming(mn, pre);
    with_symbol(symbols_, op->name, phi, [&] { codegen(op->body); });
    Value *more = builder_.CreateICmpSLT(phi, last);
    Value *next = builder_.CreateAdd(phi, one, "", false, true);
    phi->addIncoming(next, builder_.GetInsertBlock());
    builder_.CreateCondBr(more, loop, after);
    builder_.SetInsertPoint(after);
}

// A parallel loop becomes a task function called by halo_parallel_for with a closure that
// holds every value and buffer the body uses.
void CodeGen::parallel_for(const For *op) {
    FreeVariables fv;
    op->body.accept(&fv);
    fv.vars.erase(op->name);
    std::vector<std::string> var_names, buf_names;
    std::vector<llvm::Type *> fields;
    for (auto &v : fv.vars) {
        if (!symbols_.count(v)) continue;
        var_names.push_back(v);
        fields.push_back(symbols_[v]->getType());
    }
    for (auto &b : fv.buffers) {
        buf_names.push_back(b);
        fields.push_back(builder_.getPtrTy());
    }
    fields.push_back(builder_.getPtrTy());  // user_context
    auto *closure_t = llvm::StructType::get(ctx_, fields);
    Value *mn = codegen(op->min), *ex = codegen(op->extent);
    // Pack the closure on the stack of the caller.
    llvm::IRBuilder<> entry(&function_->getEntryBlock(), function_->getEntryBlock().begin());
    Value *closure = entry.CreateAlloca(closure_t);
    int field = 0;
    for (auto &v : var_names) builder_.CreateStore(symbols_[v], builder_.CreateStructGEP(closure_t, closure, field++));
    for (auto &b : buf_names) builder_.CreateStore(buffers_[b], builder_.CreateStructGEP(closure_t, closure, field++));
    builder_.CreateStore(user_context_, builder_.CreateStructGEP(closure_t, closure, field++));

    // The task function.
    auto *task_t = llvm::FunctionType::get(builder_.getInt32Ty(), {builder_.getPtrTy(), builder_.getInt32Ty()}, false);
    auto *task = llvm::Function::Create(task_t, llvm::Function::InternalLinkage,
                                        function_->getName() + ".par." + std::to_string(closure_counter_++),
                                        module_);
    task->copyAttributesFrom(function_);
    task->setLinkage(llvm::Function::InternalLinkage);
    task->setDSOLocal(true);
    auto saved_fn = function_;
    auto saved_ip = builder_.saveIP();
    auto saved_symbols = symbols_;
    auto saved_buffers = buffers_;
    auto saved_heap = heap_allocations_;
    function_ = task;
    heap_allocations_.clear();
    builder_.SetInsertPoint(llvm::BasicBlock::Create(ctx_, "entry", task));
    Value *cl = task->getArg(0);
    field = 0;
    for (auto &v : var_names) {
        symbols_[v] = builder_.CreateLoad(fields[field], builder_.CreateStructGEP(closure_t, cl, field));
        field++;
    }
    for (auto &b : buf_names) {
        buffers_[b] = builder_.CreateLoad(builder_.getPtrTy(), builder_.CreateStructGEP(closure_t, cl, field));
        field++;
    }
    auto saved_ctx = user_context_;
    user_context_ = builder_.CreateLoad(builder_.getPtrTy(), builder_.CreateStructGEP(closure_t, cl, field));
    symbols_[op->name] = task->getArg(1);
    codegen(op->body);
    builder_.CreateRet(builder_.getInt32(0));
    function_ = saved_fn;
    builder_.restoreIP(saved_ip);
    symbols_ = saved_symbols;
    buffers_ = saved_buffers;
    heap_allocations_ = saved_heap;
    user_context_ = saved_ctx;

    auto pf = runtime("halo_parallel_for", builder_.getInt32Ty(),
                      {builder_.getPtrTy(), builder_.getPtrTy(), builder_.getInt32Ty(), builder_.getInt32Ty(),
                       builder_.getPtrTy()});
    Value *rc = builder_.CreateCall(pf, {null_ctx(), task, mn, ex, closure});
    check_or_return(builder_.CreateICmpEQ(rc, builder_.getInt32(0)), [&] { return rc; });
}

void CodeGen::visit(const Allocate *op) {
    Type t = op->type;
    // The element count, with every multiplication checked: a product past 2^63 must be an
    // error, never a small (or negative) allocation. An empty region has extent <= 0.
    Value *count = builder_.getInt64(1);
    Value *overflow = builder_.getFalse();
    int64_t const_count = 1;
    bool is_const = true;
    auto checked_mul = [&](Value *a, Value *b) {
        Value *r = builder_.CreateBinaryIntrinsic(llvm::Intrinsic::smul_with_overflow, a, b);
        overflow = builder_.CreateOr(overflow, builder_.CreateExtractValue(r, 1));
        return builder_.CreateExtractValue(r, 0);
    };
    for (auto &e : op->extents) {
        Value *v = builder_.CreateSExt(codegen(e), builder_.getInt64Ty());
        v = builder_.CreateBinaryIntrinsic(llvm::Intrinsic::smax, v, builder_.getInt64(0));
        count = checked_mul(count, v);
        const int64_t *c = as_const_int(e);
        if (c && !__builtin_mul_overflow(const_count, std::max<int64_t>(*c, 0), &const_count)) continue;
        is_const = false;
    }
    // Small buffers of known size live on the stack; the rest on the heap. store_in changes
    // the limit: 1 MiB for Stack and Register (more could overflow a worker thread's stack),
    // everything on the heap for Heap.
    const int64_t stack_limit = op->memory_type == MemoryType::Heap     ? -1
                                : op->memory_type == MemoryType::Auto ? 64 * 1024
                                                                        : 1024 * 1024;
    int64_t bytes = 0;
    Value *ptr;
    bool on_heap = !(is_const && !__builtin_mul_overflow(const_count, int64_t(t.bytes()), &bytes) && bytes <= stack_limit);
    if (!on_heap) {
        llvm::IRBuilder<> entry(&function_->getEntryBlock(), function_->getEntryBlock().begin());
        auto *a = entry.CreateAlloca(llvm::ArrayType::get(memory_type(t.element_of()), std::max<int64_t>(const_count, 1)));
        a->setAlignment(llvm::Align(64));
        ptr = a;
    } else {
        // Pad by one vector so that wide loads at the end of a row stay inside the allocation.
        Value *size = checked_mul(count, builder_.getInt64(t.bytes()));
        Value *padded = builder_.CreateBinaryIntrinsic(llvm::Intrinsic::sadd_with_overflow, size, builder_.getInt64(64));
        overflow = builder_.CreateOr(overflow, builder_.CreateExtractValue(padded, 1));
        size = builder_.CreateExtractValue(padded, 0);
        Value *name = builder_.CreateGlobalStringPtr(op->name);
        auto oom = runtime("halo_error_out_of_memory", builder_.getInt32Ty(),
                           {builder_.getPtrTy(), builder_.getPtrTy(), builder_.getInt64Ty()});
        // -1 bytes: more than an int64 can count.
        check_or_return(builder_.CreateNot(overflow), [&] { return builder_.CreateCall(oom, {null_ctx(), name, builder_.getInt64(-1)}); });
        auto m = runtime("halo_malloc", builder_.getPtrTy(), {builder_.getPtrTy(), builder_.getInt64Ty()});
        if (auto *fn = llvm::dyn_cast<llvm::Function>(m.getCallee())) fn->addRetAttr(llvm::Attribute::NoAlias);
        ptr = builder_.CreateCall(m, {null_ctx(), size});
        check_or_return(builder_.CreateIsNotNull(ptr), [&] { return builder_.CreateCall(oom, {null_ctx(), name, size}); });
        heap_allocations_.push_back(ptr);
    }
    with_symbol(buffers_, op->name, ptr, [&] { codegen(op->body); });
    if (on_heap) {
        heap_allocations_.pop_back();
        auto f = runtime("halo_free", builder_.getVoidTy(), {builder_.getPtrTy(), builder_.getPtrTy()});
        builder_.CreateCall(f, {null_ctx(), ptr});
    }
}

// Checks a buffer argument and binds its host pointer and per-dimension fields.
void CodeGen::unpack_buffer(const std::string &name, Value *buf, Type type, int dims) {
    // halo_buffer_t layout: {ptr host; u8 code; u8 bits; u16 reserved; i32 dimensions; ptr dim}
    auto *buf_t = llvm::StructType::get(ctx_, {builder_.getPtrTy(), builder_.getInt8Ty(), builder_.getInt8Ty(),
                                               builder_.getInt16Ty(), builder_.getInt32Ty(), builder_.getPtrTy()});
    auto *dim_t = llvm::StructType::get(ctx_, {builder_.getInt32Ty(), builder_.getInt32Ty(),
                                               builder_.getInt32Ty(), builder_.getInt32Ty()});
    // The structural checks in one call to the runtime (runtime/BufferChecks.cpp): inline they
    // were a branch and an error block per check. (An input or output whose dim(0).set_stride
    // was given takes any stride in dimension 0: its addresses use it.)
    Value *name_str = builder_.CreateGlobalStringPtr(name);
    auto check = runtime("halo_check_buffer", builder_.getInt32Ty(),
                         {builder_.getPtrTy(), builder_.getPtrTy(), builder_.getPtrTy(), builder_.getInt32Ty(),
                          builder_.getInt32Ty(), builder_.getInt32Ty(), builder_.getInt32Ty(), builder_.getInt32Ty()});
    bool dense_dim0 = dims > 0 && !strided_buffers_.count(name);
    auto alignment = host_alignments_.find(name);
    int host_alignment = alignment == host_alignments_.end() ? 0 : alignment->second;
    Value *code = builder_.CreateCall(check, {null_ctx(), buf, name_str, builder_.getInt32(type.code()),
                                              builder_.getInt32(type.bits()), builder_.getInt32(dims),
                                              builder_.getInt32(dense_dim0), builder_.getInt32(host_alignment)});
    check_or_return(builder_.CreateICmpEQ(code, builder_.getInt32(0)), [&] { return code; });
    Value *host = builder_.CreateLoad(builder_.getPtrTy(), builder_.CreateStructGEP(buf_t, buf, 0));
    Value *dim = builder_.CreateLoad(builder_.getPtrTy(), builder_.CreateStructGEP(buf_t, buf, 5));
    buffers_[name] = host;
    static const char *fields[] = {"min", "extent", "stride"};
    for (int d = 0; d < dims; d++) {
        Value *dp = builder_.CreateInBoundsGEP(dim_t, dim, builder_.getInt32(d));
        for (int f = 0; f < 3; f++) {
            std::string n = name + "." + fields[f] + "." + std::to_string(d);
            symbols_[n] = builder_.CreateLoad(builder_.getInt32Ty(), builder_.CreateStructGEP(dim_t, dp, f), n);
        }
    }
}

// Pipelines do not run in place: a value may be read after a store to the same memory (a
// ShiftInwards tail computes its last vector again, a Func computed at root reads an input
// the output has already overwritten). Every output is checked against every input and every
// other output at entry.
void CodeGen::check_outputs_disjoint(const std::vector<std::pair<std::string, Value *>> &outputs,
                                     const std::vector<std::pair<std::string, Value *>> &inputs) {
    if (outputs.empty() || outputs.size() + inputs.size() < 2) return;
    // One call with arrays of the buffers and their names (outputs first): the runtime tests
    // only pairs whose spans intersect, where a call per pair grew as the square of the outputs.
    const size_t n = outputs.size() + inputs.size();
    llvm::ArrayType *array = llvm::ArrayType::get(builder_.getPtrTy(), n);
    Value *buffers = builder_.CreateAlloca(array, nullptr, "disjoint_buffers");
    Value *names = builder_.CreateAlloca(array, nullptr, "disjoint_names");
    size_t i = 0;
    for (const auto *group : {&outputs, &inputs}) {
        for (const auto &[name, buffer] : *group) {
            builder_.CreateStore(buffer, builder_.CreateConstInBoundsGEP2_32(array, buffers, 0, unsigned(i)));
            builder_.CreateStore(builder_.CreateGlobalStringPtr(name),
                                 builder_.CreateConstInBoundsGEP2_32(array, names, 0, unsigned(i)));
            i++;
        }
    }
    auto check = runtime("halo_check_outputs_disjoint", builder_.getInt32Ty(),
                         {builder_.getPtrTy(), builder_.getPtrTy(), builder_.getPtrTy(), builder_.getInt32Ty(),
                          builder_.getInt32Ty()});
    Value *code = builder_.CreateCall(check, {null_ctx(), buffers, names, builder_.getInt32(int32_t(outputs.size())),
                                              builder_.getInt32(int32_t(n))});
    check_or_return(builder_.CreateICmpEQ(code, builder_.getInt32(0)), [&] { return code; });
}

void CodeGen::compile(const LoweredPipeline &p) {
    auto *fn_t = llvm::FunctionType::get(builder_.getInt32Ty(), {builder_.getPtrTy()}, false);
    function_ = llvm::Function::Create(fn_t, llvm::Function::ExternalLinkage, p.name, module_);
    function_->addFnAttr("target-cpu", tm_.getTargetCPU());
    function_->addFnAttr("target-features", tm_.getTargetFeatureString());
    if (tm_.getMCSubtargetInfo()->checkFeatures("+avx512f")) {
        function_->addFnAttr("prefer-vector-width", "512");
        function_->addFnAttr("min-legal-vector-width", "512");
    }
    function_->addFnAttr(llvm::Attribute::NoUnwind);
    // Allow a*b+c to become a fused multiply-add, as Halide does; nothing else is relaxed.
    llvm::FastMathFlags fmf;
    fmf.setAllowContract(true);
    builder_.setFastMathFlags(fmf);
    builder_.SetInsertPoint(llvm::BasicBlock::Create(ctx_, "entry", function_));
    Value *args = function_->getArg(0);
    auto arg_ptr = [&](int i) {
        return builder_.CreateLoad(builder_.getPtrTy(), builder_.CreateConstInBoundsGEP1_32(builder_.getPtrTy(), args, i));
    };
    user_context_ = arg_ptr(0);
    strided_buffers_ = p.strided_buffers;
    host_alignments_ = p.host_alignments;
    const int first_param = 1 + int(p.outputs.size());
    std::vector<std::pair<std::string, Value *>> outputs, inputs;
    for (size_t i = 0; i < p.outputs.size(); i++) {
        outputs.emplace_back(p.outputs[i].name, arg_ptr(int(1 + i)));
        unpack_buffer(p.outputs[i].name, outputs.back().second, p.outputs[i].type, p.outputs[i].dimensions);
    }
    for (size_t i = 0; i < p.params.size(); i++) {
        auto &param = p.params[i];
        if (param->is_buffer) {
            inputs.emplace_back(param->name, arg_ptr(int(i) + first_param));
            unpack_buffer(param->name, inputs.back().second, param->type, param->dimensions);
        } else {
            symbols_[param->name] = builder_.CreateLoad(llvm_type(param->type), arg_ptr(int(i) + first_param), param->name);
        }
    }
    check_outputs_disjoint(outputs, inputs);
    codegen(p.body);
    builder_.CreateRet(builder_.getInt32(0));
}

}  // namespace

std::unique_ptr<llvm::Module> codegen_llvm(const LoweredPipeline &p, llvm::LLVMContext &ctx,
                                           llvm::TargetMachine &tm) {
    auto m = std::make_unique<llvm::Module>(p.name, ctx);
    m->setDataLayout(tm.createDataLayout());
    m->setTargetTriple(tm.getTargetTriple().str());
    CodeGen cg(ctx, *m, tm);
    cg.compile(p);
    std::string err;
    llvm::raw_string_ostream os(err);
    if (llvm::verifyModule(*m, &os)) {
        internal_error << "generated LLVM IR does not verify: " << os.str();
    }
    return m;
}

void initialize_llvm() {
    static std::once_flag once;
    std::call_once(once, [] {
        llvm::InitializeNativeTarget();
        llvm::InitializeNativeTargetAsmPrinter();
        set_code_generation_defaults();
        const char *argv0 = "halo";
        llvm::cl::ParseCommandLineOptions(1, &argv0, "", nullptr, "HALO_LLVM_ARGS");
    });
}

LLVMPassTimingScope::LLVMPassTimingScope() : active_(llvm_time_passes_enabled()) {
    if (active_) llvm::TimePassesIsEnabled = true;
}

LLVMPassTimingScope::~LLVMPassTimingScope() {
    if (!active_) return;
    llvm::reportAndResetTimings(&llvm::errs());
    llvm::TimePassesIsEnabled = false;
}

}  // namespace halo
