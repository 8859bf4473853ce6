// The checks every buffer argument passes on entry, before generated code reads its fields.
// One call per buffer: made inline they were a branch and an error block per check (six per
// buffer and one per dimension), a third of the IR of a pipeline with a few inputs, which LLVM
// optimized and compiled at the price of the loops themselves (cnn_block: 72 blocks of its
// entry function).
#include "HaloRuntime.h"

int32_t halo_check_buffer(void *user_context, const halo_buffer_t *buf, const char *buffer_name,
                          int32_t type_code, int32_t type_bits, int32_t dimensions, int32_t dense_dim0,
                          int32_t host_alignment) {
    if (!buf || !buf->host) return halo_error_null_buffer(user_context, buffer_name);
    if (host_alignment > 1 && reinterpret_cast<uintptr_t>(buf->host) % uintptr_t(host_alignment) != 0)
        return halo_error_unaligned_host(user_context, buffer_name, buf->host, host_alignment);
    if (buf->type_code != type_code || buf->type_bits != type_bits)
        return halo_error_bad_type(user_context, buffer_name, buf->type_code, buf->type_bits, type_code, type_bits);
    if (buf->dimensions != dimensions)
        return halo_error_bad_dimensions(user_context, buffer_name, buf->dimensions, dimensions);
    if (dimensions == 0) return 0;
    if (!buf->dim) return halo_error_null_dim(user_context, buffer_name, dimensions);
    if (dense_dim0 && buf->dim[0].stride != 1) return halo_error_bad_stride(user_context, buffer_name, buf->dim[0].stride);
    for (int32_t d = 0; d < dimensions; d++) {
        const halo_dimension_t &dim = buf->dim[d];
        // The bounds checks compute the last coordinate, min + extent - 1, in 32 bits: a
        // negative extent or a last coordinate that wraps would make them pass wrongly.
        int64_t last = int64_t(dim.min) + dim.extent - 1;
        if (dim.extent < 0 || last > INT32_MAX || last < INT32_MIN)
            return halo_error_bad_extent(user_context, buffer_name, d, dim.min, dim.extent);
    }
    return 0;
}
