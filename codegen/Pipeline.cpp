#include "Pipeline.h"

#include <iostream>
#include <mutex>

#include "dsl/Func.h"
#include "lower/AutoSchedule.h"
#include "lower/LoopNest.h"

namespace halo {

namespace {

// Creating a Func's pipeline on first use.
std::mutex creation_mutex;

std::vector<Func> checked_outputs(const std::vector<Func> &outputs) {
    user_assert(!outputs.empty()) << "A Pipeline needs at least one output Func";
    for (const Func &f : outputs) {
        user_assert(f.defined()) << "Func '" << f.name() << "' is an output of a Pipeline but has no definition";
    }
    return outputs;
}

}  // namespace

// ---------------------------------------------------------------- Pipeline, the handle

// A Pipeline of one Func may be made before the Func is defined (Halide's may); using it
// before then is an error that names the Func (contents()).
Pipeline::Pipeline(const Func &output)
    : contents_(std::make_shared<PipelineContents>(std::vector<Func>{output},
                                                   PipelineContents::Ownership::OwnsOutputs)) {}

Pipeline::Pipeline(const std::vector<Func> &outputs)
    : contents_(std::make_shared<PipelineContents>(checked_outputs(outputs), PipelineContents::Ownership::OwnsOutputs)) {}

PipelineContents &Pipeline::contents(const char *method) const {
    user_assert(contents_) << "Pipeline::" << method << " of an undefined Pipeline (one made by Pipeline()); "
                           << "assign it a Pipeline of output Funcs first";
    for (auto &f : contents_->outputs()) {
        user_assert(f->has_pure_definition)
            << "Pipeline::" << method << ": its output Func '" << f->name << "' has no definition";
    }
    return *contents_;
}

std::vector<Func> Pipeline::outputs() const {
    user_assert(contents_) << "Pipeline::outputs of an undefined Pipeline (one made by Pipeline())";
    std::vector<Func> r;
    for (auto &f : contents_->outputs()) r.emplace_back(f);
    return r;
}

void Pipeline::compile_jit() { contents("compile_jit").compile_jit(); }
void Pipeline::compile_jit(const Target &target) { contents("compile_jit").compile_jit(target); }
bool Pipeline::is_current() const { return contents("is_current").is_current(); }
int Pipeline::compile_count() const { return contents("compile_count").compile_count(); }
void Pipeline::realize(Buffer<> &dst, const ParamMap &param_map) { contents("realize").realize(dst, param_map); }
void Pipeline::realize(Realization &dst, const ParamMap &param_map) { contents("realize").realize(dst, param_map); }
Realization Pipeline::realize(const std::vector<int> &sizes, const ParamMap &param_map) {
    return contents("realize").realize(sizes, param_map);
}
void Pipeline::infer_input_bounds(const std::vector<int> &sizes) {
    contents("infer_input_bounds").infer_input_bounds(sizes);
}
Func Pipeline::get_func(const std::string &name) const { return contents("get_func").get_func(name); }
std::string Pipeline::lowered_stmt() { return contents("lowered_stmt").lowered_stmt(); }
std::string Pipeline::llvm_ir() { return contents("llvm_ir").llvm_ir(); }
std::string Pipeline::assembly() { return contents("assembly").assembly(); }
double Pipeline::compile_time_ms() const { return contents("compile_time_ms").compile_time_ms(); }
int64_t Pipeline::arena_bytes() const { return contents("arena_bytes").arena_bytes(); }
void Pipeline::release_memory() { contents("release_memory").release_memory(); }

namespace {
// The loops of the pipeline computing `outputs`, lowered for that only (nothing is compiled).
std::string loop_nest_of(const std::vector<std::shared_ptr<FunctionContents>> &outputs) {
    LowerOptions options;
    options.stop_before_flattening = true;  // loops still carry their kinds
    return loop_nest_text(lower(outputs, "halo_loop_nest", options).body);
}
}  // namespace

std::string Pipeline::loop_nest() const { return loop_nest_of(contents("loop_nest").outputs()); }

void Pipeline::print_loop_nest() const { std::cout << loop_nest(); }

AutoSchedulerResults Pipeline::auto_schedule(const Target &target) {
    contents("auto_schedule");  // (checks the outputs)
    std::vector<Func> outs = outputs();
    user_assert(outs.size() == 1) << "Pipeline::auto_schedule: Halo's auto-scheduler schedules a pipeline of one "
                                  << "output, and this one has " << outs.size() << " (the first is Func '"
                                  << outs[0].name() << "'); schedule it by hand, or auto-schedule each output's "
                                  << "own pipeline";
    AutoScheduleOptions options;
    options.target = target;
    AutoScheduleResult chosen = halo::auto_schedule(outs[0], options);
    AutoSchedulerResults r;
    r.scheduler_name = "Halo";
    r.target = target;
    r.schedule_source = chosen.source;
    return r;
}

AutoSchedulerResults Pipeline::auto_schedule(const std::string &autoscheduler_name, const Target &target) {
    AutoSchedulerResults r = auto_schedule(target);
    r.scheduler_name = autoscheduler_name;
    return r;
}

// ---------------------------------------------------------------- Func's entry points
// A Func's own pipeline (FunctionContents::pipeline), made on first use and kept with the Func.

PipelineContents &Func::pipeline() {
    std::lock_guard<std::mutex> lock(creation_mutex);
    if (!f_->pipeline) {
        f_->pipeline = std::make_shared<PipelineContents>(std::vector<Func>{*this},
                                                          PipelineContents::Ownership::ReferredToByOutput);
    }
    return *f_->pipeline;
}

Realization Func::realize(const std::vector<int> &sizes, const ParamMap &param_map) {
    user_assert(defined()) << "Func '" << name() << "' is realized but has no definition";
    user_assert(int(sizes.size()) == dimensions())
        << "Func '" << name() << "' has " << dimensions() << " dimensions but realize() was given "
        << sizes.size() << " sizes";
    return pipeline().realize(sizes, param_map);
}

void Func::realize(Buffer<> &dst, const ParamMap &param_map) {
    user_assert(defined()) << "Func '" << name() << "' is realized but has no definition";
    pipeline().realize(dst, param_map);
}

void Func::realize(Realization &dst, const ParamMap &param_map) {
    user_assert(defined()) << "Func '" << name() << "' is realized but has no definition";
    pipeline().realize(dst, param_map);
}

namespace {
// A default-constructed Target names the host but has no LLVM triple yet.
Target complete(const Target &t) { return t.triple.empty() ? Target::parse(t.to_string()) : t; }
}  // namespace

Realization Func::realize(const std::vector<int> &sizes, const Target &target, const ParamMap &param_map) {
    compile_jit(complete(target));
    return realize(sizes, param_map);
}

void Func::realize(Buffer<> &dst, const Target &target, const ParamMap &param_map) {
    compile_jit(complete(target));
    realize(dst, param_map);
}

void Func::infer_input_bounds(const std::vector<int> &sizes) {
    user_assert(defined()) << "Func '" << name() << "' has no definition, so no inputs to infer the bounds of";
    pipeline().infer_input_bounds(sizes);
}

void Func::compile_jit() {
    user_assert(defined()) << "Func '" << name() << "' is compiled but has no definition";
    pipeline().compile_jit();
}

void Func::compile_jit(const Target &target) {
    user_assert(defined()) << "Func '" << name() << "' is compiled but has no definition";
    pipeline().compile_jit(target);
}

std::string Func::lowered_stmt() {
    user_assert(defined()) << "Func '" << name() << "' has no definition";
    return pipeline().lowered_stmt();
}

std::string Func::loop_nest() const {
    user_assert(defined()) << "Func '" << name() << "' has no definition";
    return loop_nest_of({f_});
}

void Func::print_loop_nest() const { std::cout << loop_nest(); }

std::string Func::llvm_ir() { return pipeline().llvm_ir(); }
void Func::release_memory() {
    std::shared_ptr<PipelineContents> p;
    {
        // Another thread may be creating the pipeline right now (Func::pipeline()).
        std::lock_guard<std::mutex> lock(creation_mutex);
        p = f_->pipeline;
    }
    if (p) p->release_memory();
}
std::string Func::assembly() { return pipeline().assembly(); }

}  // namespace halo
