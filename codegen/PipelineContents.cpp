#include "PipelineContents.h"

#include <array>
#include <atomic>
#include <cstring>
#include <chrono>
#include <iostream>
#include <mutex>
#include <sstream>

#include "JIT.h"
#include "dsl/Func.h"
#include "dsl/IRPrinter.h"
#include "lower/BufferConstraints.h"
#include "lower/Environment.h"
#include "lower/InferInputBounds.h"
#include "lower/LargeStack.h"
#include "lower/LoopNest.h"

namespace halo {

namespace {

// Run-time errors of a JIT-compiled pipeline go to its call's context (whose user pointer is
// the call's CallError) and are rethrown as RuntimeError. Several tasks of a parallel loop may
// fail at once (a require() failing in many rows): the first message is kept, under a lock.
struct CallError {
    std::mutex mutex;
    std::string message;
};
void capture_error(void *user_context, const char *msg) {
    auto *error = static_cast<CallError *>(static_cast<halo_context_t *>(user_context)->user);
    std::lock_guard<std::mutex> lock(error->mutex);
    if (error->message.empty()) error->message = msg;
}

std::atomic<int> pipeline_counter{0};

}  // namespace

PipelineContents::PipelineContents(const std::vector<Func> &outputs, Ownership ownership)
    : arena_(halo_arena_create(), &halo_arena_destroy) {
    user_assert(!outputs.empty()) << "A Pipeline needs at least one output Func";
    for (const Func &f : outputs) {
        outputs_.push_back(f.function());
        if (ownership == Ownership::OwnsOutputs) owned_outputs_.push_back(f.function());
    }
}
PipelineContents::~PipelineContents() = default;

void PipelineContents::compile_jit(const Target &target) {
    std::lock_guard<std::mutex> lock(mutex_);
    if (target.to_string() != target_.to_string()) jit_.reset();
    target_ = target;
    compile_locked();
}

void PipelineContents::compile_jit() {
    std::lock_guard<std::mutex> lock(mutex_);
    compile_locked();
}

bool PipelineContents::is_current() const {
    std::lock_guard<std::mutex> lock(mutex_);
    return is_current_locked();
}

int PipelineContents::compile_count() const {
    std::lock_guard<std::mutex> lock(mutex_);
    return compile_count_;
}

double PipelineContents::compile_time_ms() const {
    std::lock_guard<std::mutex> lock(mutex_);
    return compile_ms_;
}

std::vector<std::shared_ptr<FunctionContents>> PipelineContents::outputs() const {
    std::vector<std::shared_ptr<FunctionContents>> r;
    for (auto &w : outputs_) {
        r.push_back(w.lock());
        internal_assert(r.back()) << "a compiled pipeline outlived its output Func";
    }
    return r;
}

std::string PipelineContents::describe() const {
    auto outs = outputs();
    if (outs.size() == 1) return "Func '" + outs[0]->name + "'";
    std::string s = "the pipeline of ";
    for (size_t i = 0; i < outs.size(); i++) s += (i ? ", '" : "'") + outs[i]->name + "'";
    return s;
}

bool PipelineContents::is_current_locked() const {
    if (!jit_) return false;
    for (const auto &[weak, version] : compiled_versions_) {
        std::shared_ptr<FunctionContents> f = weak.lock();
        if (!f || f->schedule_stamp() != version) return false;
    }
    for (const CompiledParam &c : compiled_constraints_) {
        std::shared_ptr<ParameterContents> p = c.param.lock();
        if (!p) return false;
        std::lock_guard<std::mutex> lock(p->mutex);
        if (p->constraints_version != c.constraints_version || fixed_buffer_strided_dim0(*p) != c.strided_dim0) return false;
    }
    return true;
}

void PipelineContents::compile_locked() {
    if (is_current_locked()) return;
    // Forget the old code first: if this compile fails, the next call must not find it current.
    jit_.reset();
    compiled_versions_.clear();
    compiled_constraints_.clear();
    auto outs = outputs();
    auto start = std::chrono::steady_clock::now();
    std::vector<std::pair<std::weak_ptr<FunctionContents>, std::array<uint64_t, 3>>> versions;
    for (const auto &f : pipeline_functions(outs)) versions.emplace_back(f, f->schedule_stamp());
    // Code generation walks expressions recursively too: on the compiler's large stack.
    run_with_large_stack([&] {
        lowered_ = lower(outs, "halo_pipeline_" + std::to_string(pipeline_counter++));
        jit_ = std::make_shared<JITModule>(lowered_, target_);
    });
    compiled_versions_ = std::move(versions);
    for (auto &p : lowered_.params) {
        std::lock_guard<std::mutex> lock(p->mutex);
        compiled_constraints_.push_back({p, p->constraints_version, fixed_buffer_strided_dim0(*p)});
    }
    compile_count_++;
    compile_ms_ = std::chrono::duration<double, std::milli>(std::chrono::steady_clock::now() - start).count();
}

std::string PipelineContents::lowered_stmt() {
    // The compiled pipeline's loop nest if it is current; otherwise lower afresh (without
    // compiling, and without marking anything as compiled).
    std::lock_guard<std::mutex> lock(mutex_);
    LoweredPipeline p = is_current_locked() ? lowered_ : lower(outputs(), "halo_pipeline_" + std::to_string(pipeline_counter++));
    std::ostringstream s;
    for (auto &note : p.notes) s << "// " << note << "\n";
    s << p.body;
    return s.str();
}

std::string PipelineContents::llvm_ir() {
    // The IR is made again on request (JITModule::llvm_ir): not under the lock, which would keep
    // realize() on other threads waiting that long.
    std::shared_ptr<JITModule> jit;
    {
        std::lock_guard<std::mutex> lock(mutex_);
        compile_locked();
        jit = jit_;
    }
    return jit->llvm_ir();
}

void PipelineContents::realize(Buffer<> &dst, const ParamMap &param_map) {
    Realization r(dst);
    realize(r, param_map);
}

void PipelineContents::realize(Realization &dst, const ParamMap &param_map) {
    auto outs = outputs();
    size_t values = 0;
    for (auto &out : outs) values += out->types().size();
    user_assert(dst.size() == values)
        << describe() << " has " << values << " value" << (values == 1 ? "" : "s") << " but is realized into "
        << dst.size() << " buffer" << (dst.size() == 1 ? "" : "s")
        << ": give one buffer per value (a Realization)" << (outs.size() > 1 ? ", in the order of the outputs" : "");
    size_t next = 0;
    for (auto &out : outs) {
        std::vector<Type> types = out->types();
        for (size_t i = 0; i < types.size(); i++) {
            const Buffer<> &b = dst[next++];
            std::string which = types.size() > 1 ? " value " + std::to_string(i) : "";
            user_assert(b.defined()) << "realize of Func '" << out->name << "'" << which << " into an undefined Buffer";
            user_assert(b.type() == types[i])
                << "Func '" << out->name << "'" << which << " has type " << types[i].to_string()
                << " but is realized into Buffer '" << b.name() << "' of type " << b.type().to_string();
            user_assert(b.dimensions() == out->dimensions())
                << "Func '" << out->name << "' has " << out->dimensions()
                << " dimensions but is realized into Buffer '" << b.name() << "' with " << b.dimensions();
        }
    }
    const std::string &out_name = outs[0]->name;
    std::shared_ptr<JITModule> jit;
    std::vector<std::shared_ptr<ParameterContents>> params;
    {
        std::lock_guard<std::mutex> lock(mutex_);
        compile_locked();
        jit = jit_;
        params = lowered_.params;
    }
    // This call's own context: errors reach only it, so calls need no lock around the run.
    CallError error;
    halo_context_t context{arena_.get(), &error, &capture_error};
    // The inputs as they are now (or as the map gives them), in descriptors of this call's own:
    // another thread may set a parameter or realize with the same buffers meanwhile.
    size_t n_buffers = dst.size();
    for (auto &p : params) n_buffers += p->is_buffer;
    std::vector<halo_buffer_t> descriptors;
    descriptors.reserve(n_buffers);  // pointers into it are taken below
    std::vector<std::shared_ptr<BufferContents>> inputs_alive;
    std::vector<std::array<unsigned char, 8>> scalars;
    scalars.reserve(params.size());
    std::vector<void *> args{&context};
    for (size_t i = 0; i < dst.size(); i++) {
        descriptors.push_back(dst[i].contents->descriptor());
        args.push_back(&descriptors.back());
    }
    for (auto &p : params) {
        const ParamMap::ParamMapping *mapped = param_map.find(p.get());
        if (p->is_buffer) {
            std::shared_ptr<BufferContents> b = mapped ? mapped->buffer.contents : p->bound_buffer();
            // A run-time error, as Halide's "Buffer argument ... is nullptr" (a RuntimeError).
            if (!b) {
                throw RuntimeError(halo_error_code_null_buffer,
                                   "ImageParam '" + p->name + "' is used by Func '" + out_name +
                                       "' but no Buffer is bound to it; call " + p->name +
                                       ".set(buffer) before realize, or give it in the ParamMap of the call");
            }
            descriptors.push_back(b->descriptor());
            args.push_back(&descriptors.back());
            inputs_alive.push_back(std::move(b));
        } else {
            if (!mapped && p->generating_without_value) {
                throw CompileError("Func '" + out_name + "' reads the generator Input '" + p->name +
                                   "', which has no value while generate() runs, so it cannot be realized there; "
                                   "define the Func as part of the pipeline (e.g. compute_root()) instead of "
                                   "realizing it in generate(), or give the Input a default value");
            }
            scalars.emplace_back();
            if (mapped) std::memcpy(scalars.back().data(), mapped->scalar, 8);
            else p->copy_scalar(scalars.back().data());
            args.push_back(scalars.back().data());
        }
    }
    int32_t rc = jit->entry()(args.data());
    halo_arena_end_call(arena_.get(), arena_keep_calls);
    if (rc != 0) {
        std::string message = error.message.empty() ? "pipeline failed with code " + std::to_string(rc) : error.message;
        throw RuntimeError(rc, message);
    }
}

// realize(sizes) computes the outputs over [0, sizes) as Halide's does: where the schedule
// writes an output outside that region (a RoundUp or ShiftInwards split wider than the output,
// an update writing past it), the buffers are grown to what is written, the pipeline runs, and
// the result is cropped back to [0, sizes) (a view into the larger buffers). Halide asks the
// pipeline in a bounds query first; here the output checks, which run before anything else,
// report the region when they fail (take_output_overreach), and the call is made again.
Realization PipelineContents::realize(const std::vector<int> &sizes, const ParamMap &param_map) {
    auto outs = outputs();
    // Outputs of fewer dimensions than others take the first sizes (as in Halide: a 1-D and a
    // 2-D output realized over {w, h} are w and w x h).
    const FunctionContents *widest = outs[0].get();
    for (auto &out : outs) {
        user_assert(out->has_pure_definition) << "Func '" << out->name << "' is realized but has no definition";
        if (out->dimensions() > widest->dimensions()) widest = out.get();
    }
    user_assert(int(sizes.size()) == widest->dimensions())
        << "Func '" << widest->name << "' has " << widest->dimensions() << " dimensions but realize() was given "
        << sizes.size() << " sizes" << (outs.size() > 1 ? " (one per dimension of the pipeline's widest output)" : "");
    // Each output's region, per dimension: [min, min + extent).
    std::vector<std::vector<int>> mins, extents;
    for (auto &out : outs) {
        mins.emplace_back(out->dimensions(), 0);
        extents.emplace_back(sizes.begin(), sizes.begin() + out->dimensions());
    }
    for (auto &out : outs) {
        for (size_t d = 0; d < size_t(out->dimensions()); d++) {
            user_assert(sizes[d] >= 0) << "realize of Func '" << out->name << "' given negative size " << sizes[d]
                                       << " in dimension " << d << "; sizes are extents, 0 or more";
        }
    }
    auto allocate = [&] {
        std::vector<Buffer<>> buffers;
        for (size_t o = 0; o < outs.size(); o++) {
            std::vector<Type> types = outs[o]->types();
            for (size_t i = 0; i < types.size(); i++) {
                // A generated unique name, as Halide's: named after the Func, the buffer could
                // not be read by a later Func of the same name (inputs and Funcs share names).
                try {
                    buffers.emplace_back(types[i], extents[o], unique_name('b'));
                } catch (const CompileError &e) {
                    throw CompileError("realize of Func '" + outs[o]->name + "': " + e.what());
                }
                buffers.back().set_min(mins[o]);
            }
        }
        return Realization(buffers);
    };
    Realization result = allocate();
    for (int attempt = 0;; attempt++) {
        take_output_overreach();
        try {
            realize(result, param_map);
            break;
        } catch (const RuntimeError &) {
            std::optional<OutputOverreach> over = take_output_overreach();
            if (!over || attempt > 4 * int(sizes.size()) + 4) throw;
            bool grown = false;
            for (size_t o = 0; o < outs.size(); o++) {
                if (outs[o]->name != over->output) continue;
                for (size_t d = 0; d < outs[o]->args.size(); d++) {
                    if (outs[o]->args[d] != over->dim) continue;
                    int64_t lo = std::min<int64_t>(mins[o][d], over->write_min);
                    int64_t hi = std::max<int64_t>(int64_t(mins[o][d]) + extents[o][d] - 1, over->write_max);
                    if (lo < INT32_MIN || hi - lo + 1 > INT32_MAX) throw;  // the error says why
                    grown |= lo != mins[o][d] || hi - lo + 1 != extents[o][d];
                    mins[o][d] = int(lo);
                    extents[o][d] = int(hi - lo + 1);
                }
            }
            if (!grown) throw;
            result = allocate();
        }
    }
    // Back to the requested region.
    std::vector<Buffer<>> cropped;
    for (size_t i = 0; i < result.size(); i++) {
        Buffer<> b = result[i];
        for (size_t d = 0; d < size_t(b.dimensions()); d++) {
            if (b.dim(int(d)).min() != 0 || b.dim(int(d)).extent() != sizes[d]) b = b.cropped(int(d), 0, sizes[d]);
        }
        cropped.push_back(b);
    }
    return Realization(cropped);
}

Func PipelineContents::get_func(const std::string &name) const {
    std::vector<std::shared_ptr<FunctionContents>> found;
    std::string names;
    for (auto &f : pipeline_functions(outputs())) {
        if (f->name == name) found.push_back(f);
        names += (names.empty() ? "" : ", ") + f->name;
    }
    user_assert(!found.empty()) << "Pipeline::get_func(\"" << name << "\"): no Func of the pipeline has that name; its "
                                << "Funcs are " << names;
    user_assert(found.size() == 1) << "Pipeline::get_func(\"" << name << "\"): " << found.size()
                                   << " different Funcs of the pipeline have that name; keep a handle to the one you mean";
    return Func(found[0]);
}

void PipelineContents::infer_input_bounds(const std::vector<int> &sizes) {
    for (auto &[name, region] : infer_input_regions(outputs(), sizes)) {
        if (!region.param->buffer) region.param->set_buffer(allocate_input_region(name, region).contents);
    }
}

std::string PipelineContents::assembly() {
    std::shared_ptr<JITModule> jit;  // (as llvm_ir())
    {
        std::lock_guard<std::mutex> lock(mutex_);
        compile_locked();
        jit = jit_;
    }
    return jit->assembly();
}

}  // namespace halo
