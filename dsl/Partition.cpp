// Stage::partition and its variants (Halide's loop partitioning policies): recorded on the
// stage's loops; lower/PartitionLoops.cpp follows them.
#include "Func.h"

namespace halo {

Stage &Stage::partition(const VarOrRVar &var, Partition policy) {
    const char *directive = policy == Partition::Never    ? "partition(..., Partition::Never)"
                            : policy == Partition::Always ? "partition(..., Partition::Always)"
                                                          : "partition(..., Partition::Auto)";
    Dim &d = find_dim(var.name(), directive);
    f_->changed();
    d.partition = policy;
    return *this;
}

Stage &Stage::never_partition(const std::vector<VarOrRVar> &vars) {
    for (const VarOrRVar &v : vars) partition(v, Partition::Never);
    return *this;
}

Stage &Stage::always_partition(const std::vector<VarOrRVar> &vars) {
    for (const VarOrRVar &v : vars) partition(v, Partition::Always);
    return *this;
}

Stage &Stage::never_partition_all() {
    f_->changed();
    for (Dim &d : def().schedule.dims) d.partition = Partition::Never;
    return *this;
}

Stage &Stage::always_partition_all() {
    f_->changed();
    for (Dim &d : def().schedule.dims) d.partition = Partition::Always;
    return *this;
}

#define HALO_FORWARD_TO_PURE(call)                                                                             \
    user_assert(defined()) << "Func '" << name() << "' is scheduled before it has a definition; define it first"; \
    Stage(f_, 0).call;                                                                                          \
    return *this;

Func &Func::partition(const VarOrRVar &var, Partition policy) { HALO_FORWARD_TO_PURE(partition(var, policy)) }
Func &Func::never_partition(const std::vector<VarOrRVar> &vars) { HALO_FORWARD_TO_PURE(never_partition(vars)) }
Func &Func::always_partition(const std::vector<VarOrRVar> &vars) { HALO_FORWARD_TO_PURE(always_partition(vars)) }
Func &Func::never_partition_all() { HALO_FORWARD_TO_PURE(never_partition_all()) }
Func &Func::always_partition_all() { HALO_FORWARD_TO_PURE(always_partition_all()) }

#undef HALO_FORWARD_TO_PURE

}  // namespace halo
