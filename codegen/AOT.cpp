#include "AOT.h"

#include <algorithm>
#include <llvm/ADT/SmallString.h>
#include <llvm/Bitcode/BitcodeWriter.h>
#include <llvm/IR/IRBuilder.h>
#include <llvm/IR/LegacyPassManager.h>
#include <llvm/IR/LLVMContext.h>
#include <llvm/IR/Module.h>
#include <llvm/IR/Verifier.h>
#include <llvm/MC/TargetRegistry.h>
#include <llvm/Object/ArchiveWriter.h>
#include <llvm/Support/MemoryBuffer.h>
#include <llvm/Support/TargetSelect.h>
#include <llvm/Support/raw_ostream.h>
#include <llvm/Target/TargetMachine.h>
#include <llvm/Transforms/Utils/Cloning.h>

#include <fstream>
#include <sstream>

#include "CNames.h"
#include "CodeGenLLVM.h"
#include "OptimizeModule.h"
#include "dsl/Buffer.h"
#include "dsl/Func.h"
#include "dsl/IRPrinter.h"
#include "lower/LargeStack.h"
#include "lower/PassTiming.h"

namespace halo {

namespace {

std::unique_ptr<llvm::TargetMachine> make_target_machine(const Target &t) {
    initialize_llvm();
    std::string err;
    const llvm::Target *target = llvm::TargetRegistry::lookupTarget(t.triple, err);
    user_assert(target) << "No LLVM backend for target '" << t.name << "' (" << t.triple << "): " << err;
    llvm::TargetOptions opts;
    return std::unique_ptr<llvm::TargetMachine>(target->createTargetMachine(
        t.triple, t.cpu, t.features, opts, llvm::Reloc::PIC_, std::nullopt, llvm::CodeGenOptLevel::Aggressive));
}

std::string c_type(Type t) {
    if (t.is_float()) return t.bits() == 32 ? "float" : "double";
    if (t.is_bool()) return "bool";
    return std::string(t.is_uint() ? "uint" : "int") + std::to_string(t.bits()) + "_t";
}

void write_file(const std::string &path, const std::string &text) {
    std::ofstream f(path, std::ios::binary);
    user_assert(f.good()) << "Cannot write '" << path << "'";
    f << text;
}

// A constant halo_buffer_t (and its data) for a Buffer the algorithm uses directly.
llvm::Constant *embed_buffer(llvm::Module &m, const BufferContents &b) {
    llvm::LLVMContext &ctx = m.getContext();
    auto *i8 = llvm::Type::getInt8Ty(ctx), *i16 = llvm::Type::getInt16Ty(ctx), *i32 = llvm::Type::getInt32Ty(ctx);
    auto *ptr = llvm::PointerType::get(ctx, 0);
    int64_t elems = 1;
    for (auto &d : b.dims) elems *= d.extent;
    // Copy the elements densely (the descriptor below describes a dense layout).
    std::vector<uint8_t> bytes(size_t(elems) * b.type.bytes());
    std::vector<int> c(b.dims.size());
    int64_t i = 0;
    std::function<void(size_t)> walk = [&](size_t d) {
        if (d == 0) {
            for (int x = 0; x < b.dims[0].extent; x++) {
                c[0] = b.dims[0].min + x;
                std::memcpy(&bytes[size_t(i++) * b.type.bytes()], b.host + b.offset_of(c.data()) * b.type.bytes(),
                            b.type.bytes());
            }
            return;
        }
        for (int v = 0; v < b.dims[d].extent; v++) {
            c[d] = b.dims[d].min + v;
            walk(d - 1);
        }
    };
    if (b.dims.empty()) std::memcpy(bytes.data(), b.host, b.type.bytes());  // a scalar: its one element
    else if (elems > 0) walk(b.dims.size() - 1);
    auto *data = new llvm::GlobalVariable(m, llvm::ArrayType::get(i8, bytes.size()), true,
                                          llvm::GlobalValue::PrivateLinkage,
                                          llvm::ConstantDataArray::get(ctx, bytes), b.name + ".data");
    data->setAlignment(llvm::Align(64));
    auto *dim_t = llvm::StructType::get(ctx, {i32, i32, i32, i32});
    std::vector<llvm::Constant *> dims;
    int64_t stride = 1;
    for (auto &d : b.dims) {
        dims.push_back(llvm::ConstantStruct::get(dim_t, {llvm::ConstantInt::get(i32, d.min),
                                                         llvm::ConstantInt::get(i32, d.extent),
                                                         llvm::ConstantInt::get(i32, stride),
                                                         llvm::ConstantInt::get(i32, 0)}));
        stride *= d.extent;
    }
    auto *dims_t = llvm::ArrayType::get(dim_t, dims.size());
    auto *dim_array = new llvm::GlobalVariable(m, dims_t, true, llvm::GlobalValue::PrivateLinkage,
                                               llvm::ConstantArray::get(dims_t, dims), b.name + ".dims");
    auto *buf_t = llvm::StructType::get(ctx, {ptr, i8, i8, i16, i32, ptr});
    auto *desc = llvm::ConstantStruct::get(
        buf_t, {data, llvm::ConstantInt::get(i8, b.type.code()), llvm::ConstantInt::get(i8, b.type.bits()),
                llvm::ConstantInt::get(i16, 0), llvm::ConstantInt::get(i32, b.dims.size()), dim_array});
    // Written-to never, but generated code takes a non-const pointer: keep it mutable.
    return new llvm::GlobalVariable(m, buf_t, false, llvm::GlobalValue::PrivateLinkage, desc, b.name + ".buffer");
}

// int32_t name(inputs..., halo_buffer_t *output) calling the pipeline's argv entry point with
// no context, or with_context: int32_t name(halo_context_t *context, inputs..., output), which
// passes its context as the user_context (arena, error handler) and ends the call in it.
void add_wrapper(llvm::Module &m, const LoweredPipeline &p, const std::vector<AOTArgument> &inputs,
                 const std::string &name, bool with_context) {
    llvm::LLVMContext &ctx = m.getContext();
    llvm::IRBuilder<> b(ctx);
    auto *ptr = b.getPtrTy();
    auto llvm_type = [&](Type t) -> llvm::Type * {
        if (t.is_float()) return t.bits() == 64 ? b.getDoubleTy() : b.getFloatTy();
        return b.getIntNTy(t.is_bool() ? 8 : t.bits());
    };
    const unsigned first_input = with_context ? 1 : 0;
    std::vector<llvm::Type *> params;
    if (with_context) params.push_back(ptr);
    for (auto &a : inputs) params.push_back(a.is_buffer() ? ptr : llvm_type(a.type));
    for (size_t i = 0; i < p.outputs.size(); i++) params.push_back(ptr);  // the output (one per value)
    auto *fn = llvm::Function::Create(llvm::FunctionType::get(b.getInt32Ty(), params, false),
                                      llvm::Function::ExternalLinkage, name, m);
    llvm::Function *inner = m.getFunction(p.name);
    fn->copyAttributesFrom(inner);
    fn->setLinkage(llvm::Function::ExternalLinkage);
    inner->setLinkage(llvm::Function::InternalLinkage);
    b.SetInsertPoint(llvm::BasicBlock::Create(ctx, "entry", fn));
    const int first_param = 1 + int(p.outputs.size());
    int n = int(p.params.size()) + first_param;
    llvm::Value *argv = b.CreateAlloca(llvm::ArrayType::get(ptr, n));
    auto set_arg = [&](int i, llvm::Value *v) { b.CreateStore(v, b.CreateConstInBoundsGEP2_32(llvm::ArrayType::get(ptr, n), argv, 0, i)); };
    llvm::Value *context = with_context ? static_cast<llvm::Value *>(fn->getArg(0)) : llvm::ConstantPointerNull::get(ptr);
    set_arg(0, context);
    for (size_t i = 0; i < p.outputs.size(); i++) {
        set_arg(int(1 + i), fn->getArg(first_input + unsigned(inputs.size() + i)));
    }
    for (size_t i = 0; i < p.params.size(); i++) {
        auto &param = p.params[i];
        if (param->is_fixed_buffer) {
            set_arg(int(i) + first_param, embed_buffer(m, *param->buffer));
            continue;
        }
        int found = -1;
        for (size_t j = 0; j < inputs.size(); j++) {
            if (inputs[j].name == param->name) found = int(j);
        }
        user_assert(found >= 0) << "The pipeline reads '" << param->name << "', which is not one of the function's "
                                << "arguments: declare it as an Input of the generator, or add it to the argument "
                                << "list of compile_to_static_library (or the other compile_to_* forms)";
        const Argument &a = inputs[size_t(found)];
        const char *kind = param->is_buffer ? "an image (ImageParam)" : "a scalar (Param)";
        user_assert(a.is_buffer() == param->is_buffer && a.type == param->type &&
                    (!a.is_buffer() || a.dimensions == param->dimensions))
            << "Argument '" << a.name << "' does not match what the pipeline reads under that name: "
            << kind << " of type " << param->type.to_string()
            << (param->is_buffer ? " with " + std::to_string(param->dimensions) + " dimensions" : std::string())
            << ", but the argument is " << (a.is_buffer() ? "an image" : "a scalar") << " of type " << a.type.to_string()
            << (a.is_buffer() ? " with " + std::to_string(a.dimensions) + " dimensions" : std::string())
            << " (two parameters with one name?)";
        llvm::Value *v = fn->getArg(first_input + unsigned(found));
        if (param->is_buffer) {
            set_arg(int(i) + first_param, v);
        } else {
            llvm::Value *slot = b.CreateAlloca(v->getType());
            b.CreateStore(v, slot);
            set_arg(int(i) + first_param, slot);
        }
    }
    llvm::Value *rc = b.CreateCall(inner, {argv});
    if (with_context) {
        llvm::FunctionCallee end_call = m.getOrInsertFunction(
            "halo_context_end_call", llvm::FunctionType::get(b.getVoidTy(), {ptr}, false));
        b.CreateCall(end_call, {context});
    }
    b.CreateRet(rc);
}

// outputs: one buffer per value of the output Func.
std::string header_text(const std::vector<AOTArgument> &inputs, const std::vector<LoweredPipeline::Output> &outputs,
                        const std::string &name) {
    std::ostringstream h;
    std::string guard = "HALO_GENERATED_" + name + "_H";
    h << "// Generated by Halo. Do not edit.\n#ifndef " << guard << "\n#define " << guard << "\n\n";
    h << "#include <stdbool.h>\n#include <stdint.h>\n\n#include \"HaloRuntime.h\"\n\n";
    h << "#ifdef __cplusplus\nextern \"C\" {\n#endif\n\n";
    h << "// Returns 0, or a halo_error_code_* after reporting the problem through the error handler.\n";
    h << "// Every buffer is checked before anything is read or written: non-NULL, with host memory\n"
         "// and a dim array, the type and dimensions below, extents >= 0, stride 1 in dimension 0\n"
         "// (but for a buffer whose dim(0).set_stride was given),\n"
         "// inputs large enough for the output, and no output sharing memory with an input or\n"
         "// another output (no in-place runs; see halo_buffer_t in HaloRuntime.h).\n";
    std::vector<std::string> names;
    for (auto &a : inputs) names.push_back(a.name);
    for (auto &o : outputs) names.push_back(o.name);  // a Tuple's fields: f.0, f.1 (as f_0, f_1)
    names = c_parameter_names(names);
    std::ostringstream args;
    for (size_t i = 0; i < inputs.size(); i++) {
        const AOTArgument &a = inputs[i];
        if (a.is_buffer()) args << "halo_buffer_t *" << names[i] << " /* " << a.type.to_string() << ", " << a.dimensions << "-D */, ";
        else args << c_type(a.type) << " " << names[i] << ", ";
    }
    for (size_t i = 0; i < outputs.size(); i++) {
        args << (i ? ", " : "") << "halo_buffer_t *" << names[inputs.size() + i] << " /* output, "
             << outputs[i].type.to_string() << ", " << outputs[i].dimensions << "-D */";
    }
    h << "int32_t " << name << "(" << args.str() << ");\n\n";
    h << "// The same with a context (see halo_context_t; NULL is allowed): intermediate buffers come\n"
         "// from its arena and are kept for the next call, errors go to its handler.\n";
    h << "int32_t " << name << "_with_context(halo_context_t *context, " << args.str() << ");\n\n";
    h << "#ifdef __cplusplus\n}  // extern \"C\"\n#endif\n\n#endif  // " << guard << "\n";
    return h.str();
}

}  // namespace

namespace {

void compile_to_files_on_this_stack(const std::vector<Func> &outputs, const std::vector<AOTArgument> &inputs,
                                    const std::string &function_name, const Target &target,
                                    const std::string &dir, const AOTEmit &emit) {
    check_function_name(function_name);
    std::vector<std::shared_ptr<FunctionContents>> funcs;
    for (const Func &f : outputs) {
        user_assert(f.defined()) << "Func '" << f.name() << "' is compiled but has no definition";
        funcs.push_back(f.function());
    }
    LoweredPipeline p = lower(funcs, function_name + ".pipeline");
    std::string base = dir + "/" + function_name;
    auto path = [&](const std::string &given, const std::string &usual) { return given.empty() ? usual : given; };
    if (emit.stmt) {
        std::ostringstream s;
        s << p.body;
        write_file(path(emit.stmt_path, base + ".stmt"), s.str());
    }
    auto tm = make_target_machine(target);
    PassTimer timer(function_name);
    LLVMPassTimingScope llvm_pass_timing;
    llvm::LLVMContext ctx;
    auto m = codegen_llvm(p, ctx, *tm);
    add_wrapper(*m, p, inputs, function_name, false);
    add_wrapper(*m, p, inputs, function_name + "_with_context", true);
    std::string err;
    llvm::raw_string_ostream es(err);
    internal_assert(!llvm::verifyModule(*m, &es)) << "AOT module does not verify: " << es.str();
    timer.lap("llvm_codegen");
    optimize_module(*m, *tm, target.llvm_loop_opt);
    timer.lap("llvm_optimize");
    if (emit.llvm_ir) {
        std::string ir;
        llvm::raw_string_ostream os(ir);
        m->print(os, nullptr);
        write_file(path(emit.llvm_ir_path, base + ".ll"), os.str());
    }
    if (emit.bitcode) {
        std::string bc;
        llvm::raw_string_ostream os(bc);
        llvm::WriteBitcodeToFile(*m, os);
        write_file(path(emit.bitcode_path, base + ".bc"), os.str());
    }
    auto emit_file = [&](llvm::CodeGenFileType type) {
        auto copy = llvm::CloneModule(*m);
        llvm::SmallString<0> out;
        llvm::raw_svector_ostream os(out);
        llvm::legacy::PassManager pm;
        internal_assert(!tm->addPassesToEmitFile(pm, os, nullptr, type)) << "target cannot emit files";
        pm.run(*copy);
        return std::string(out.str());
    };
    if (emit.assembly) write_file(path(emit.assembly_path, base + ".s"), emit_file(llvm::CodeGenFileType::AssemblyFile));
    std::string object;
    if (emit.object || emit.static_library) object = emit_file(llvm::CodeGenFileType::ObjectFile);
    timer.lap("llvm_machine_code");
    if (emit.object) write_file(path(emit.object_path, base + ".o"), object);
    if (emit.static_library) {
        auto buffer = llvm::MemoryBuffer::getMemBuffer(object, function_name + ".o", false);
        std::vector<llvm::NewArchiveMember> members;
        members.emplace_back(buffer->getMemBufferRef());
        llvm::Error e = llvm::writeArchive(path(emit.static_library_path, dir + "/lib" + function_name + ".a"), members,
                                           llvm::SymtabWritingMode::NormalSymtab, llvm::object::Archive::K_GNU,
                                           true, false);
        user_assert(!e) << "Cannot write the static library for '" << function_name << "': "
                        << llvm::toString(std::move(e));
    }
    if (emit.header) write_file(path(emit.header_path, base + ".h"), header_text(inputs, p.outputs, function_name));
}

}  // namespace

void compile_to_files(const std::vector<Func> &outputs, const std::vector<AOTArgument> &inputs,
                      const std::string &function_name, const Target &target, const std::string &dir,
                      const AOTEmit &emit) {
    user_assert(!outputs.empty()) << "compile_to_files of '" << function_name << "' without outputs";
    // Lowering and code generation walk expressions recursively: on the compiler's large stack.
    run_with_large_stack([&] { compile_to_files_on_this_stack(outputs, inputs, function_name, target, dir, emit); });
}

void compile_to_files(const Func &output, const std::vector<AOTArgument> &inputs, const std::string &function_name,
                      const Target &target, const std::string &dir, const AOTEmit &emit) {
    compile_to_files(std::vector<Func>{output}, inputs, function_name, target, dir, emit);
}

}  // namespace halo
