// Halide's Pipeline::compile_to_* and Func::compile_to_* forms of ahead-of-time compilation,
// each naming its files: they all go through compile_to_files (AOT.cpp). A Func's are those of
// the Pipeline of that one output, whose function is named after the Func by default.
#include <fstream>

#include "AOT.h"
#include "Pipeline.h"
#include "dsl/Func.h"
#include "lower/Environment.h"

#include <algorithm>

namespace halo {

namespace {

void compile_outputs(const std::vector<Func> &outputs, const std::vector<Argument> &args, const std::string &fn_name,
                     const Target &target, const AOTEmit &emit) {
    compile_to_files(outputs, args, fn_name, target, ".", emit);
}

AOTEmit nothing() {
    AOTEmit e;
    e.static_library = false;
    e.header = false;
    return e;
}

std::string html_escaped(const std::string &text) {
    std::string out;
    for (char c : text) {
        if (c == '<') out += "&lt;";
        else if (c == '>') out += "&gt;";
        else if (c == '&') out += "&amp;";
        else out += c;
    }
    return out;
}

}  // namespace

void Pipeline::compile_to_static_library(const std::string &filename_prefix, const std::vector<Argument> &args,
                                         const std::string &fn_name, const Target &target) {
    AOTEmit e = nothing();
    e.static_library = e.header = true;
    e.static_library_path = filename_prefix + ".a";
    e.header_path = filename_prefix + ".h";
    compile_outputs(outputs(), args, fn_name, target, e);
}

void Pipeline::compile_to_file(const std::string &filename_prefix, const std::vector<Argument> &args,
                               const std::string &fn_name, const Target &target) {
    AOTEmit e = nothing();
    e.object = e.header = true;
    e.object_path = filename_prefix + ".o";
    e.header_path = filename_prefix + ".h";
    compile_outputs(outputs(), args, fn_name, target, e);
}

void Pipeline::compile_to_object(const std::string &filename, const std::vector<Argument> &args,
                                 const std::string &fn_name, const Target &target) {
    AOTEmit e = nothing();
    e.object = true;
    e.object_path = filename;
    compile_outputs(outputs(), args, fn_name, target, e);
}

void Pipeline::compile_to_header(const std::string &filename, const std::vector<Argument> &args,
                                 const std::string &fn_name, const Target &target) {
    AOTEmit e = nothing();
    e.header = true;
    e.header_path = filename;
    compile_outputs(outputs(), args, fn_name, target, e);
}

void Pipeline::compile_to_assembly(const std::string &filename, const std::vector<Argument> &args,
                                   const std::string &fn_name, const Target &target) {
    AOTEmit e = nothing();
    e.assembly = true;
    e.assembly_path = filename;
    compile_outputs(outputs(), args, fn_name, target, e);
}

void Pipeline::compile_to_llvm_assembly(const std::string &filename, const std::vector<Argument> &args,
                                        const std::string &fn_name, const Target &target) {
    AOTEmit e = nothing();
    e.llvm_ir = true;
    e.llvm_ir_path = filename;
    compile_outputs(outputs(), args, fn_name, target, e);
}

void Pipeline::compile_to_bitcode(const std::string &filename, const std::vector<Argument> &args,
                                  const std::string &fn_name, const Target &target) {
    AOTEmit e = nothing();
    e.bitcode = true;
    e.bitcode_path = filename;
    compile_outputs(outputs(), args, fn_name, target, e);
}

void Pipeline::compile_to_lowered_stmt(const std::string &filename, const std::vector<Argument> &args,
                                       StmtOutputFormat format, const Target &) {
    (void)args;  // (the loop nest does not depend on the argument order, nor on the CPU)
    const std::string stmt = lowered_stmt();
    std::ofstream out(filename, std::ios::binary);
    user_assert(out.good()) << "Cannot write '" << filename << "'";
    if (format == Text) {
        out << stmt;
        return;
    }
    std::string title;
    for (const Func &f : outputs()) title += (title.empty() ? "" : ", ") + f.name();
    out << "<!DOCTYPE html>\n<html><head><meta charset=\"utf-8\"><title>" << html_escaped(title)
        << "</title></head>\n<body><pre>\n" << html_escaped(stmt) << "</pre></body></html>\n";
}

// ---------------------------------------------------------------- Func's forms

std::vector<Argument> Pipeline::infer_arguments() const {
    std::vector<std::shared_ptr<FunctionContents>> outs;
    for (const Func &f : outputs()) outs.push_back(f.function());
    std::vector<Argument> args;
    for (auto &p : parameters_read(pipeline_functions(outs))) {
        if (p->is_fixed_buffer) continue;  // (compiled into the code, not an argument)
        args.emplace_back(p->name, p->is_buffer ? Argument::InputBuffer : Argument::InputScalar, p->type,
                          p->is_buffer ? p->dimensions : 0);
    }
    // As Halide's: the buffers first, then the scalars, each in the order of their names.
    std::stable_sort(args.begin(), args.end(), [](const Argument &a, const Argument &b) {
        if (a.is_buffer() != b.is_buffer()) return a.is_buffer();
        return a.name < b.name;
    });
    return args;
}

std::vector<Argument> Func::infer_arguments() const { return Pipeline(*this).infer_arguments(); }

namespace {
// The function of a Func's files is named after it unless a name is given.
std::string function_name_of(const Func &f, const std::string &fn_name) { return fn_name.empty() ? f.name() : fn_name; }
}  // namespace

void Func::compile_to_static_library(const std::string &filename_prefix, const std::vector<Argument> &args,
                                     const std::string &fn_name, const Target &target) {
    Pipeline(*this).compile_to_static_library(filename_prefix, args, function_name_of(*this, fn_name), target);
}
void Func::compile_to_file(const std::string &filename_prefix, const std::vector<Argument> &args,
                           const std::string &fn_name, const Target &target) {
    Pipeline(*this).compile_to_file(filename_prefix, args, function_name_of(*this, fn_name), target);
}
void Func::compile_to_object(const std::string &filename, const std::vector<Argument> &args,
                             const std::string &fn_name, const Target &target) {
    Pipeline(*this).compile_to_object(filename, args, function_name_of(*this, fn_name), target);
}
void Func::compile_to_object(const std::string &filename, const std::vector<Argument> &args, const Target &target) {
    compile_to_object(filename, args, "", target);
}
void Func::compile_to_header(const std::string &filename, const std::vector<Argument> &args,
                             const std::string &fn_name, const Target &target) {
    Pipeline(*this).compile_to_header(filename, args, function_name_of(*this, fn_name), target);
}
void Func::compile_to_assembly(const std::string &filename, const std::vector<Argument> &args,
                               const std::string &fn_name, const Target &target) {
    Pipeline(*this).compile_to_assembly(filename, args, function_name_of(*this, fn_name), target);
}
void Func::compile_to_assembly(const std::string &filename, const std::vector<Argument> &args, const Target &target) {
    compile_to_assembly(filename, args, "", target);
}
void Func::compile_to_llvm_assembly(const std::string &filename, const std::vector<Argument> &args,
                                    const std::string &fn_name, const Target &target) {
    Pipeline(*this).compile_to_llvm_assembly(filename, args, function_name_of(*this, fn_name), target);
}
void Func::compile_to_llvm_assembly(const std::string &filename, const std::vector<Argument> &args,
                                    const Target &target) {
    compile_to_llvm_assembly(filename, args, "", target);
}
void Func::compile_to_bitcode(const std::string &filename, const std::vector<Argument> &args,
                              const std::string &fn_name, const Target &target) {
    Pipeline(*this).compile_to_bitcode(filename, args, function_name_of(*this, fn_name), target);
}
void Func::compile_to_bitcode(const std::string &filename, const std::vector<Argument> &args, const Target &target) {
    compile_to_bitcode(filename, args, "", target);
}
void Func::compile_to_lowered_stmt(const std::string &filename, const std::vector<Argument> &args,
                                   StmtOutputFormat format, const Target &target) {
    Pipeline(*this).compile_to_lowered_stmt(filename, args, format, target);
}

}  // namespace halo
