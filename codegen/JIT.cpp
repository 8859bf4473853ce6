#include "JIT.h"

#include <llvm/ExecutionEngine/Orc/ExecutionUtils.h>
#include <llvm/ExecutionEngine/Orc/LLJIT.h>
#include <llvm/ExecutionEngine/Orc/ThreadSafeModule.h>
#include <llvm/IR/LegacyPassManager.h>
#include <llvm/IR/Module.h>
#include <llvm/Transforms/Utils/Cloning.h>
#include <llvm/ADT/SmallString.h>
#include <llvm/Support/TargetSelect.h>
#include <llvm/Support/raw_ostream.h>
#include <llvm/Target/TargetMachine.h>
#include <llvm/TargetParser/Host.h>

#include <mutex>
#include <optional>

#include "CodeGenLLVM.h"
#include "OptimizeModule.h"
#include "SanitizeJIT.h"
#include "lower/LargeStack.h"
#include "lower/PassTiming.h"
#include "dsl/Error.h"
#include "dsl/ExternFunction.h"
#include "runtime/HaloRuntime.h"

namespace halo {

namespace {

thread_local std::optional<OutputOverreach> last_output_overreach;

// The JIT's halo_error_output_bounds: records the region, then reports as the runtime does.
int32_t record_output_overreach(void *user_context, const char *output_name, const char *dim_name, int64_t have_min,
                                int64_t have_max, int64_t write_min, int64_t write_max, const char *hint) {
    last_output_overreach = OutputOverreach{output_name, dim_name, write_min, write_max};
    return halo_error_output_bounds(user_context, output_name, dim_name, have_min, have_max, write_min, write_max, hint);
}

// The JIT's halo_error_output_read (an output read by a later output outside its buffer): the
// region the reader needs is what the output must be computed over.
int32_t record_output_read(void *user_context, const char *output_name, const char *reader, const char *dim_name,
                           int64_t have_min, int64_t have_max, int64_t need_min, int64_t need_max) {
    last_output_overreach = OutputOverreach{output_name, dim_name, need_min, need_max};
    return halo_error_output_read(user_context, output_name, reader, dim_name, have_min, have_max, need_min, need_max);
}

}  // namespace

std::optional<OutputOverreach> take_output_overreach() {
    std::optional<OutputOverreach> r = std::move(last_output_overreach);
    last_output_overreach.reset();
    return r;
}


namespace {

std::string to_string(llvm::Error e) {
    std::string s;
    llvm::raw_string_ostream os(s);
    os << e;
    return os.str();
}

}  // namespace

struct JITModule::Impl {
    std::unique_ptr<llvm::orc::LLJIT> jit;
    // What the code was made from, to make its IR and assembly again on request: printing the
    // IR on every compile took 2-4 ms (cnn_block's compile is about 130).
    LoweredPipeline pipeline;
    bool llvm_loop_opt = false;
    std::unique_ptr<llvm::TargetMachine> tm;
    // The optimised module made again, on the first request for the IR or the assembly, and the
    // texts made from it. The mutex also keeps the TargetMachine to one thread at a time.
    std::mutex mutex;
    std::unique_ptr<llvm::LLVMContext> context;
    std::unique_ptr<llvm::Module> module;
    std::optional<std::string> ir, assembly;

    // Code generation and LLVM's passes are deterministic, so this is the module the JIT
    // compiled (before the sanitizer's instrumentation, in sanitized builds, as a build without
    // sanitizers makes it).
    llvm::Module &optimized_module_locked() {
        if (!module) {
            context = std::make_unique<llvm::LLVMContext>();
            run_with_large_stack([&] {
                module = codegen_llvm(pipeline, *context, *tm);
                optimize_module(*module, *tm, llvm_loop_opt);
            });
        }
        return *module;
    }
};

JITModule::JITModule(const LoweredPipeline &p, const Target &target) : impl_(std::make_unique<Impl>()) {
    initialize_llvm();
    user_assert(target.supported_by_host()) << "Target '" << target.name << "' needs CPU features this "
                                            << "machine does not have, so its code cannot run here";
    auto jtmb = std::optional<llvm::orc::JITTargetMachineBuilder>(llvm::orc::JITTargetMachineBuilder(llvm::Triple(target.triple)));
    jtmb->setCPU(target.cpu);
    if (!target.features.empty()) {
        llvm::SmallVector<llvm::StringRef, 32> fs;
        llvm::StringRef(target.features).split(fs, ',');
        std::vector<std::string> list(fs.begin(), fs.end());
        jtmb->addFeatures(list);
    }
    jtmb->setCodeGenOptLevel(llvm::CodeGenOptLevel::Aggressive);
    auto tm = jtmb->createTargetMachine();
    internal_assert(bool(tm)) << "cannot create target machine: " << to_string(tm.takeError());
    impl_->tm = std::move(*tm);
    impl_->pipeline = p;
    impl_->llvm_loop_opt = target.llvm_loop_opt;

    PassTimer timer(p.name);
    LLVMPassTimingScope llvm_pass_timing;
    auto ctx = std::make_unique<llvm::LLVMContext>();
    auto module = codegen_llvm(p, *ctx, *impl_->tm);
    timer.lap("llvm_codegen");
    optimize_module(*module, *impl_->tm, target.llvm_loop_opt);
    timer.lap("llvm_optimize");
    // Only in sanitized builds (llvm_ir() and assembly() show the code without it).
    instrument_for_host_sanitizer(*module, *impl_->tm);

    auto jit = llvm::orc::LLJITBuilder().setJITTargetMachineBuilder(std::move(*jtmb)).create();
    internal_assert(bool(jit)) << "cannot create JIT: " << to_string(jit.takeError());
    impl_->jit = std::move(*jit);
    auto &jd = impl_->jit->getMainJITDylib();
    // The runtime lives in this process; libm comes from the process's shared libraries.
    llvm::orc::SymbolMap runtime;
    auto add = [&](const char *name, auto *fn) {
        runtime[impl_->jit->mangleAndIntern(name)] = {llvm::orc::ExecutorAddr::fromPtr(fn),
                                                      llvm::JITSymbolFlags::Exported};
    };
    add("halo_error", &halo_error);
    add("halo_check_buffer", &halo_check_buffer);
    add("halo_error_null_buffer", &halo_error_null_buffer);
    add("halo_error_bad_type", &halo_error_bad_type);
    add("halo_error_bad_dimensions", &halo_error_bad_dimensions);
    add("halo_error_bounds", &halo_error_bounds);
    add("halo_error_out_of_memory", &halo_error_out_of_memory);
    add("halo_error_bad_stride", &halo_error_bad_stride);
    add("halo_error_null_dim", &halo_error_null_dim);
    add("halo_error_unaligned_host", &halo_error_unaligned_host);
    add("halo_check_buffers_disjoint", &halo_check_buffers_disjoint);
    add("halo_check_outputs_disjoint", &halo_check_outputs_disjoint);
    add("halo_error_bad_extent", &halo_error_bad_extent);
    add("halo_error_output_bounds", &record_output_overreach);
    add("halo_error_output_bound", &halo_error_output_bound);
    add("halo_error_realization_mismatch", &halo_error_realization_mismatch);
    add("halo_error_output_read", &record_output_read);
    add("halo_error_fold_storage", &halo_error_fold_storage);
    add("halo_error_bound_storage", &halo_error_bound_storage);
    add("halo_error_split_factor", &halo_error_split_factor);
    add("halo_error_align_modulus", &halo_error_align_modulus);
    add("halo_print", &halo_print);
    add("halo_error_requirement_failed", &halo_error_requirement_failed);
    add("halo_error_specialize_fail", &halo_error_specialize_fail);
    add("halo_error_param_range_i64", &halo_error_param_range_i64);
    add("halo_error_param_range_u64", &halo_error_param_range_u64);
    add("halo_error_param_range_f64", &halo_error_param_range_f64);
    add("halo_error_func_bound", &halo_error_func_bound);
    add("halo_error_buffer_constraint", &halo_error_buffer_constraint);
    add("halo_error_bounds_overflow", &halo_error_bounds_overflow);
    add("halo_error_rdom_overflow", &halo_error_rdom_overflow);
    add("halo_arena_create", &halo_arena_create);
    add("halo_malloc", &halo_malloc);
    add("halo_free", &halo_free);
    add("halo_parallel_for", &halo_parallel_for);
    add("halo_atomic_lock", &halo_atomic_lock);
    add("halo_atomic_unlock", &halo_atomic_unlock);
    for (auto &[name, fn] : host_sanitizer_aliases()) add(name, fn);
    // The user's C functions that HalideExtern_N declared, wherever they live (a test's or a
    // program's own functions are not exported to the dynamic symbol table).
    for (auto &fn : registered_extern_functions()) add(fn.name.c_str(), fn.address);
    llvm::cantFail(jd.define(llvm::orc::absoluteSymbols(runtime)));
    jd.addGenerator(llvm::cantFail(llvm::orc::DynamicLibrarySearchGenerator::GetForCurrentProcess(
        impl_->jit->getDataLayout().getGlobalPrefix())));

    auto err = impl_->jit->addIRModule(llvm::orc::ThreadSafeModule(std::move(module), std::move(ctx)));
    internal_assert(!err) << "cannot add module to JIT: " << to_string(std::move(err));
    auto sym = impl_->jit->lookup(p.name);  // runs LLVM's machine code generation
    internal_assert(bool(sym)) << "cannot find compiled pipeline: " << to_string(sym.takeError());
    entry_ = sym->toPtr<PipelineEntry>();
    timer.lap("llvm_machine_code");
}

JITModule::~JITModule() = default;

std::string JITModule::llvm_ir() const {
    std::lock_guard<std::mutex> lock(impl_->mutex);
    if (!impl_->ir) {
        std::string text;
        llvm::raw_string_ostream os(text);
        impl_->optimized_module_locked().print(os, nullptr);
        os.flush();
        impl_->ir = std::move(text);
    }
    return *impl_->ir;
}

std::string JITModule::assembly() const {
    std::lock_guard<std::mutex> lock(impl_->mutex);
    if (!impl_->assembly) {
        // Code generation changes the module it runs on: it gets a copy.
        std::unique_ptr<llvm::Module> copy = llvm::CloneModule(impl_->optimized_module_locked());
        llvm::SmallString<0> text;
        llvm::raw_svector_ostream as(text);
        llvm::legacy::PassManager pm;
        internal_assert(!impl_->tm->addPassesToEmitFile(pm, as, nullptr, llvm::CodeGenFileType::AssemblyFile))
            << "LLVM cannot emit assembly for this target";
        pm.run(*copy);
        impl_->assembly = std::string(text.str());
    }
    return *impl_->assembly;
}

std::string host_target_description() {
    initialize_llvm();
    return llvm::sys::getProcessTriple() + " " + llvm::sys::getHostCPUName().str();
}

}  // namespace halo
