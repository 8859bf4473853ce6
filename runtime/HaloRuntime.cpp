// The small runtime that generated code calls: errors and allocation (parallel loops are in
// ThreadPool.cpp).
#include "HaloRuntime.h"

#include <algorithm>
#include <atomic>
#include <map>
#include <mutex>
#include <cstdint>
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <string>
#include <vector>

#if defined(__SANITIZE_ADDRESS__)
#include <sanitizer/asan_interface.h>
#endif

namespace {

// Under AddressSanitizer (whose instrumentation the JIT also applies to pipelines, see
// codegen/SanitizeJIT.h), only the bytes a pipeline asked for are addressable: not the rounding
// to 64 bytes, nor the rest of a larger block the arena reuses, nor a block back in the arena.
#if defined(__SANITIZE_ADDRESS__)
void mark_usable(void *p, size_t bytes, size_t block) {
    ASAN_UNPOISON_MEMORY_REGION(p, bytes);
    ASAN_POISON_MEMORY_REGION(static_cast<char *>(p) + bytes, block - bytes);
}
void mark_unusable(void *p, size_t block) { ASAN_POISON_MEMORY_REGION(p, block); }
void mark_for_free(void *p, size_t block) { ASAN_UNPOISON_MEMORY_REGION(p, block); }
#else
void mark_usable(void *, size_t, size_t) {}
void mark_unusable(void *, size_t) {}
void mark_for_free(void *, size_t) {}
#endif

}  // namespace

struct halo_arena_t {
    struct FreeBlock {
        void *p;
        uint64_t freed_at;  // the call during which it was last released
    };
    mutable std::mutex mutex;
    std::multimap<size_t, FreeBlock> free_blocks;  // by size
    std::map<void *, size_t> live;                 // block -> size
    int64_t total = 0;
    uint64_t calls = 0;  // calls ended so far

    // A block of at least size bytes (a multiple of 64), of which `bytes` are used.
    void *allocate(size_t size, size_t bytes) {
        std::lock_guard<std::mutex> lock(mutex);
        // Best fit, but not a block more than twice as large (that would waste memory).
        auto it = free_blocks.lower_bound(size);
        if (it != free_blocks.end() && it->first <= 2 * size) {
            void *p = it->second.p;
            live[p] = it->first;
            mark_usable(p, bytes, it->first);
            free_blocks.erase(it);
            return p;
        }
        void *p = std::aligned_alloc(64, size);
        if (p) {
            live[p] = size;
            total += int64_t(size);
            mark_usable(p, bytes, size);
        }
        return p;
    }
    bool release(void *p) {
        std::lock_guard<std::mutex> lock(mutex);
        auto it = live.find(p);
        if (it == live.end()) return false;
        mark_unusable(p, it->second);
        free_blocks.emplace(it->second, FreeBlock{p, calls});
        live.erase(it);
        return true;
    }
    // Frees the free blocks last released before call `before`.
    void free_released_before(uint64_t before) {
        for (auto it = free_blocks.begin(); it != free_blocks.end();) {
            if (it->second.freed_at >= before) {
                ++it;
                continue;
            }
            mark_for_free(it->second.p, it->first);
            std::free(it->second.p);
            total -= int64_t(it->first);
            it = free_blocks.erase(it);
        }
    }
    void end_call(int keep_calls) {
        std::lock_guard<std::mutex> lock(mutex);
        calls++;
        uint64_t keep = uint64_t(std::max(keep_calls, 0));
        if (calls > keep) free_released_before(calls - keep);
    }
    void release_unused() {
        std::lock_guard<std::mutex> lock(mutex);
        free_released_before(UINT64_MAX);
    }
    int64_t bytes() const {
        std::lock_guard<std::mutex> lock(mutex);
        return total;
    }
    ~halo_arena_t() {
        for (auto &[size, block] : free_blocks) {
            mark_for_free(block.p, size);
            std::free(block.p);
        }
        for (auto &[p, size] : live) std::free(p);
    }
};

namespace {

void default_error_handler(void *, const char *message) {
    std::fprintf(stderr, "halo error: %s\n", message);
}

std::atomic<halo_error_handler_t> error_handler{&default_error_handler};

void default_print_handler(void *, const char *line) {
    std::fputs(line, stderr);  // one call per line: lines of different threads do not mix
}

std::atomic<halo_print_handler_t> print_handler{&default_print_handler};

const char *type_name(int code, int bits, char *out, size_t n) {
    if (code == halo_type_uint && bits == 1) {
        std::snprintf(out, n, "bool");
    } else if (code == halo_type_int || code == halo_type_uint || code == halo_type_float) {
        std::snprintf(out, n, "%s%d", code == halo_type_int ? "int" : code == halo_type_uint ? "uint" : "float", bits);
    } else {
        std::snprintf(out, n, "an invalid type (type_code %d, %d bits)", code, bits);
    }
    return out;
}

// Ranges arrive as 64-bit values, exact even where their 32-bit computation wrapped.
long long LL(int64_t v) { return static_cast<long long>(v); }

// The arguments of print() (or of a require()'s message), separated by spaces.
std::string print_line(int32_t count, const int32_t *kinds, const int64_t *values) {
    std::string line;
    char num[64];
    for (int32_t i = 0; i < count; i++) {
        if (i) line += ' ';
        switch (kinds[i]) {
        case halo_print_int: std::snprintf(num, sizeof num, "%lld", LL(values[i])); line += num; break;
        case halo_print_uint:
            std::snprintf(num, sizeof num, "%llu", static_cast<unsigned long long>(values[i]));
            line += num;
            break;
        case halo_print_float:
        case halo_print_double: {
            // (%f of the lowest float is 47 characters, %e of any double at most 13.)
            double d;
            std::memcpy(&d, &values[i], sizeof d);
            std::snprintf(num, sizeof num, kinds[i] == halo_print_float ? "%f" : "%e", d);
            line += num;
            break;
        }
        default: {
            const char *s;
            std::memcpy(&s, &values[i], sizeof s);
            line += s ? s : "(null)";
        }
        }
    }
    return line;
}

}  // namespace

extern "C" {

halo_error_handler_t halo_set_error_handler(halo_error_handler_t handler) {
    return error_handler.exchange(handler ? handler : &default_error_handler);
}

halo_print_handler_t halo_set_print_handler(halo_print_handler_t handler) {
    return print_handler.exchange(handler ? handler : &default_print_handler);
}


void halo_print(void *user_context, int32_t count, const int32_t *kinds, const int64_t *values) {
    std::string line = print_line(count, kinds, values) + '\n';
    print_handler.load()(user_context, line.c_str());
}

int32_t halo_error_requirement_failed(void *user_context, const char *func_name, const char *condition,
                                      int32_t count, const int32_t *kinds, const int64_t *values) {
    std::string msg = std::string("Requirement Failed: (") + condition + ")";
    if (count > 0) msg += " " + print_line(count, kinds, values);
    if (func_name && *func_name) msg += std::string(" (a require() in Func '") + func_name + "')";
    halo_error(user_context, msg.c_str());
    return halo_error_code_requirement_failed;
}

void halo_error(void *user_context, const char *message) {
    auto *ctx = static_cast<halo_context_t *>(user_context);
    if (ctx && ctx->error_handler) {
        ctx->error_handler(user_context, message);
        return;
    }
    error_handler.load()(user_context, message);
}

int32_t halo_error_null_buffer(void *user_context, const char *buffer_name) {
    std::string msg = std::string("buffer '") + buffer_name +
                      "' is null (or has no host memory): pass a buffer with allocated memory";
    halo_error(user_context, msg.c_str());
    return halo_error_code_null_buffer;
}

int32_t halo_error_bad_type(void *user_context, const char *buffer_name, int32_t got_code,
                            int32_t got_bits, int32_t want_code, int32_t want_bits) {
    char got[64], want[64];
    std::string msg = std::string("buffer '") + buffer_name + "' has element type " +
                      type_name(got_code, got_bits, got, sizeof got) + ", but the pipeline expects " +
                      type_name(want_code, want_bits, want, sizeof want);
    halo_error(user_context, msg.c_str());
    return halo_error_code_bad_type;
}

int32_t halo_error_bad_dimensions(void *user_context, const char *buffer_name, int32_t got,
                                  int32_t want) {
    char msg[256];
    std::snprintf(msg, sizeof msg, "buffer '%s' has %d dimensions, but the pipeline expects %d",
                  buffer_name, got, want);
    halo_error(user_context, msg);
    return halo_error_code_bad_dimensions;
}

int32_t halo_error_bounds(void *user_context, const char *buffer_name, const char *producing,
                          int32_t dim, int64_t have_min, int64_t have_max, int64_t need_min,
                          int64_t need_max) {
    auto num = [](int64_t v) { return std::to_string(LL(v)); };
    std::string msg = std::string("input '") + buffer_name + "' covers dimension " + std::to_string(dim) + " in [" +
                      num(have_min) + ", " + num(have_max) + "], but producing " + producing + " needs [" +
                      num(need_min) + ", " + num(need_max) + "] of it: pass a larger input or request a smaller output";
    halo_error(user_context, msg.c_str());
    return halo_error_code_access_out_of_bounds;
}

int32_t halo_error_output_bounds(void *user_context, const char *output_name, const char *dim_name,
                                 int64_t have_min, int64_t have_max, int64_t write_min,
                                 int64_t write_max, const char *hint) {
    std::string msg(1024, '\0');
    int n = std::snprintf(&msg[0], msg.size(),
                          "output '%s' would be computed at %s in [%lld, %lld], but the buffer covers [%lld, %lld]: %s",
                          output_name, dim_name, LL(write_min), LL(write_max), LL(have_min), LL(have_max), hint);
    msg.resize(n < 0 ? 0 : std::min<size_t>(size_t(n), msg.size() - 1));
    halo_error(user_context, msg.c_str());
    return halo_error_code_access_out_of_bounds;
}

int32_t halo_error_fold_storage(void *user_context, const char *func_name, const char *dim_name, int32_t needed,
                                int32_t fold, const char *hint) {
    std::string msg = std::string("Func '") + func_name + "' is stored folded modulo " + std::to_string(fold) + " in " +
                      dim_name + " (fold_storage), but " + std::to_string(needed) +
                      " of it are needed at once: fold by at least " + std::to_string(needed) + hint;
    halo_error(user_context, msg.c_str());
    return halo_error_code_access_out_of_bounds;
}

int32_t halo_error_bound_storage(void *user_context, const char *func_name, const char *dim_name, int32_t needed,
                                 int32_t bound) {
    std::string msg = std::string("Func '") + func_name + "' has storage for " + std::to_string(bound) + " in " +
                      dim_name + " (bound_storage), but " + std::to_string(needed) +
                      " of it are computed at once: bound its storage by at least " + std::to_string(needed) +
                      ", or compute it over a smaller region";
    halo_error(user_context, msg.c_str());
    return halo_error_code_access_out_of_bounds;
}

int32_t halo_error_output_read(void *user_context, const char *output_name, const char *reader,
                               const char *dim_name, int64_t have_min, int64_t have_max, int64_t need_min,
                               int64_t need_max) {
    char msg[512];
    std::snprintf(msg, sizeof msg,
                  "output '%s' covers %s in [%lld, %lld], but Func '%s' reads it in [%lld, %lld]: an output is "
                  "computed only over its buffer; pass a larger buffer for '%s', or read a copy of it in a Func of "
                  "its own",
                  output_name, dim_name, LL(have_min), LL(have_max), reader, LL(need_min), LL(need_max),
                  output_name);
    halo_error(user_context, msg);
    return halo_error_code_access_out_of_bounds;
}

int32_t halo_error_realization_mismatch(void *user_context, const char *func_name, int32_t value, int32_t dim,
                                        int32_t min0, int32_t extent0, int32_t min, int32_t extent) {
    char msg[512];
    std::snprintf(msg, sizeof msg,
                  "the output buffers of Tuple-valued Func '%s' must cover the same region, but the buffer of "
                  "value %d has dimension %d at [%d, %lld] where the buffer of value 0 has [%d, %lld]: "
                  "realize into buffers of the same shape",
                  func_name, (int)value, (int)dim, (int)min, LL(int64_t(min) + extent - 1), (int)min0,
                  LL(int64_t(min0) + extent0 - 1));
    halo_error(user_context, msg);
    return halo_error_code_access_out_of_bounds;
}

int32_t halo_error_output_bound(void *user_context, const char *output_name, const char *dim_name,
                                const char *directive, int64_t bound_min, int64_t bound_max, int64_t want_min,
                                int64_t want_max) {
    char msg[512];
    std::snprintf(msg, sizeof msg,
                  "output '%s' is bounded to %s in [%lld, %lld] by %s, but the buffer asks "
                  "for %s in [%lld, %lld]: realize exactly the bound's region, or change the bound",
                  output_name, dim_name, LL(bound_min), LL(bound_max), directive, dim_name,
                  LL(want_min), LL(want_max));
    halo_error(user_context, msg);
    return halo_error_code_access_out_of_bounds;
}

int32_t halo_error_buffer_constraint(void *user_context, const char *buffer_name, const char *field, int32_t dim,
                                     int64_t got, int64_t want, const char *directive) {
    char msg[512];
    std::snprintf(msg, sizeof msg,
                  "buffer '%s' has %s %lld in dimension %d, but the pipeline requires %lld there (%s): pass a "
                  "buffer that meets it, or remove the constraint",
                  buffer_name, field, LL(got), dim, LL(want), directive);
    halo_error(user_context, msg);
    return halo_error_code_constraint_violated;
}

int32_t halo_error_func_bound(void *user_context, const char *func_name, const char *dim_name,
                              const char *directive, int64_t bound_min, int64_t bound_max, int64_t need_min,
                              int64_t need_max) {
    char msg[512];
    std::snprintf(msg, sizeof msg,
                  "Func '%s' is bounded to %s in [%lld, %lld] by %s, but its consumers need "
                  "%s in [%lld, %lld]: widen the bound, or request a smaller output",
                  func_name, dim_name, LL(bound_min), LL(bound_max), directive, dim_name,
                  LL(need_min), LL(need_max));
    halo_error(user_context, msg);
    return halo_error_code_access_out_of_bounds;
}

int32_t halo_error_bounds_overflow(void *user_context, const char *bound_name, int64_t value) {
    char msg[512];
    std::snprintf(msg, sizeof msg,
                  "the bound %s of this call (exactly %lld) does not fit in 32 bits, or its 32-bit "
                  "computation wraps around: coordinates are "
                  "32-bit, so every region a pipeline computes must lie in [-2^31, 2^31); use buffers "
                  "further from the ends of that range, or smaller split factors and offsets",
                  bound_name, static_cast<long long>(value));
    halo_error(user_context, msg);
    return halo_error_code_access_out_of_bounds;
}

int32_t halo_error_rdom_overflow(void *user_context, const char *stage_name, const char *rvar_name,
                                 int32_t min, int32_t extent) {
    char msg[512];
    std::snprintf(msg, sizeof msg,
                  "%s: RDom variable %s runs from %d for %d values, past the largest 32-bit "
                  "coordinate (2^31 - 1); use a smaller min or extent",
                  stage_name, rvar_name, min, extent);
    halo_error(user_context, msg);
    return halo_error_code_access_out_of_bounds;
}

int32_t halo_error_align_modulus(void *user_context, const char *directive, int32_t modulus) {
    char msg[512];
    std::snprintf(msg, sizeof msg,
                  "%s aligns to a modulus that is %d at run time; it must be positive: check the Param "
                  "the modulus is computed from",
                  directive, modulus);
    halo_error(user_context, msg);
    return halo_error_code_bad_split_factor;
}

int32_t halo_error_split_factor(void *user_context, const char *stage_name, const char *directive,
                                const char *var_name, int32_t factor) {
    char msg[512];
    const char *what = std::strcmp(directive, "parallel") == 0 ? "task size" : "factor";
    std::snprintf(msg, sizeof msg,
                  "%s: %s(%s, ...) by a %s that is %d at run time; %s %ss must be positive: check the "
                  "Param the %s is computed from",
                  stage_name, directive, var_name, what, factor, directive, what, what);
    halo_error(user_context, msg);
    return halo_error_code_bad_split_factor;
}

}  // extern "C"

// (Outside extern "C": C linkage would export these helpers, and a program's own gcd()
// would clash with them.)
namespace {
// The fewest digits that read back as x: 1.0000001 beside a bound of 1 must not print as 1.
void shortest_text(double x, char *out, size_t size) {
    for (int digits = 6; digits <= 17; digits++) {
        std::snprintf(out, size, "%.*g", digits, x);
        if (std::strtod(out, nullptr) == x) return;
    }
}

int32_t param_range_error(void *user_context, const char *param_name, const char *value, const char *bound,
                          int32_t is_max) {
    char msg[512];
    std::snprintf(msg, sizeof msg,
                  "Param '%s' is %s, %s than its %s value %s (set_range / set_%s_value); give it a value in "
                  "its range",
                  param_name, value, is_max ? "larger" : "smaller", is_max ? "largest" : "smallest", bound,
                  is_max ? "max" : "min");
    halo_error(user_context, msg);
    return halo_error_code_param_out_of_range;
}
}  // namespace

extern "C" {

int32_t halo_error_param_range_i64(void *user_context, const char *param_name, int64_t value, int64_t bound,
                                   int32_t is_max) {
    char v[32], b[32];
    std::snprintf(v, sizeof v, "%lld", (long long)value);
    std::snprintf(b, sizeof b, "%lld", (long long)bound);
    return param_range_error(user_context, param_name, v, b, is_max);
}

int32_t halo_error_param_range_u64(void *user_context, const char *param_name, uint64_t value, uint64_t bound,
                                   int32_t is_max) {
    char v[32], b[32];
    std::snprintf(v, sizeof v, "%llu", (unsigned long long)value);
    std::snprintf(b, sizeof b, "%llu", (unsigned long long)bound);
    return param_range_error(user_context, param_name, v, b, is_max);
}

int32_t halo_error_param_range_f64(void *user_context, const char *param_name, double value, double bound,
                                   int32_t is_max) {
    char v[40], b[40];
    shortest_text(value, v, sizeof v);
    shortest_text(bound, b, sizeof b);
    return param_range_error(user_context, param_name, v, b, is_max);
}

int32_t halo_error_specialize_fail(void *user_context, const char *stage_name, const char *message) {
    char msg[1024];
    std::snprintf(msg, sizeof msg,
                  "%s: none of its specializations applies to this call, and it was scheduled with "
                  "specialize_fail(\"%s\")",
                  stage_name, message);
    halo_error(user_context, msg);
    return halo_error_code_specialize_fail;
}

int32_t halo_error_bad_stride(void *user_context, const char *buffer_name, int32_t stride) {
    char msg[256];
    std::snprintf(msg, sizeof msg,
                  "buffer '%s' has stride %d in dimension 0, but the pipeline was compiled for "
                  "dimension 0 dense (stride 1); make x the innermost dimension in memory, or allow the "
                  "stride with dim(0).set_stride(s) on the input (output_buffer().dim(0) on an output; "
                  "Expr() for any)",
                  buffer_name, stride);
    halo_error(user_context, msg);
    return halo_error_code_bad_stride;
}

int32_t halo_error_unaligned_host(void *user_context, const char *buffer_name, const void *host, int32_t alignment) {
    char msg[256];
    std::snprintf(msg, sizeof msg,
                  "buffer '%s' has host pointer %p, which is not a multiple of %d bytes as its "
                  "set_host_alignment(%d) requires; pass memory aligned so, or drop set_host_alignment",
                  buffer_name, host, alignment, alignment);
    halo_error(user_context, msg);
    return halo_error_code_unaligned_host;
}

int32_t halo_error_null_dim(void *user_context, const char *buffer_name, int32_t dimensions) {
    char msg[256];
    std::snprintf(msg, sizeof msg,
                  "buffer '%s' has %d dimensions but its dim array is NULL: point dim at %d "
                  "halo_dimension_t entries",
                  buffer_name, dimensions, dimensions);
    halo_error(user_context, msg);
    return halo_error_code_null_buffer;
}

int32_t halo_error_bad_extent(void *user_context, const char *buffer_name, int32_t dim, int32_t min,
                              int32_t extent) {
    char msg[256];
    if (extent < 0) {
        std::snprintf(msg, sizeof msg,
                      "buffer '%s' has extent %d in dimension %d: extents must be 0 or more",
                      buffer_name, extent, dim);
    } else {
        std::snprintf(msg, sizeof msg,
                      "buffer '%s' has min %d and extent %d in dimension %d: its last coordinate "
                      "%lld does not fit in 32 bits",
                      buffer_name, min, extent, dim, static_cast<long long>(min) + extent - 1);
    }
    halo_error(user_context, msg);
    return halo_error_code_bad_extent;
}

}  // extern "C"

namespace {

// The bytes a buffer's elements span, [begin, end) as addresses; begin == end if it has none.
// In 128 bits: extents and strides of 2^31 and 8-byte elements would overflow 64.
struct ByteSpan {
    __int128 begin = 0, end = 0;
};

int64_t element_bytes(const halo_buffer_t *b) { return b->type_bits <= 8 ? 1 : b->type_bits / 8; }

__int128 address(const halo_buffer_t *b) { return static_cast<__int128>(reinterpret_cast<uintptr_t>(b->host)); }

ByteSpan byte_span(const halo_buffer_t *b) {
    const __int128 host = address(b);
    const int64_t eb = element_bytes(b);
    __int128 lo = 0, hi = 0;
    for (int d = 0; d < b->dimensions; d++) {
        const halo_dimension_t &dim = b->dim[d];
        if (dim.extent <= 0) return {host, host};
        const __int128 reach = static_cast<__int128>(dim.extent - 1) * dim.stride * eb;
        (reach < 0 ? lo : hi) += reach;
    }
    return {host + lo, host + hi + eb};
}

int64_t gcd(int64_t a, int64_t b) {
    a = a < 0 ? -a : a;
    b = b < 0 ? -b : b;
    while (b != 0) {
        const int64_t t = a % b;
        a = b;
        b = t;
    }
    return a;
}

__int128 modulo(__int128 v, __int128 m) {
    const __int128 r = v % m;
    return r < 0 ? r + m : r;
}

// With equal element sizes eb, every element of a starts at host_a + eb*k and every element of
// b at host_b + eb*m, where k and m are multiples of g, the common divisor of the strides of
// both: two elements share a byte only if host_b - host_a lies within eb - 1 of a multiple of
// eb*g. (Channels interleaved in one image pass this test.)
bool meet_modulo_strides(const halo_buffer_t *a, const halo_buffer_t *b) {
    const int64_t eb = element_bytes(a);
    if (element_bytes(b) != eb) return true;
    int64_t g = 0;
    for (const halo_buffer_t *buf : {a, b}) {
        for (int d = 0; d < buf->dimensions; d++) {
            if (buf->dim[d].extent > 1) g = gcd(g, buf->dim[d].stride);
        }
    }
    if (g == 0) return true;  // two single elements whose bytes overlap
    const __int128 period = static_cast<__int128>(eb) * g;
    const __int128 r = modulo(address(b) - address(a), period);
    return r < eb || r > period - eb;
}

// The dimension of b, among those with more than one element, of the smallest stride; -1 if none.
int inner_dimension(const halo_buffer_t *b) {
    int inner = -1;
    for (int d = 0; d < b->dimensions; d++) {
        if (b->dim[d].extent > 1 &&
            (inner < 0 || std::llabs(b->dim[d].stride) < std::llabs(b->dim[inner].stride))) {
            inner = d;
        }
    }
    return inner;
}

// Each buffer's bytes, taken modulo the common divisor P (in bytes) of the strides of all its
// dimensions but the inner one and of the other buffer's likewise, lie in one interval: the
// span of its inner dimension. Disjoint intervals modulo P mean disjoint buffers. (Rows
// interleaved in one image, or tiles side by side in it, pass this test.)
bool meet_modulo_rows(const halo_buffer_t *a, const halo_buffer_t *b) {
    int64_t period = 0;
    const halo_buffer_t *bufs[2] = {a, b};
    int inner[2];
    for (int i = 0; i < 2; i++) {
        inner[i] = inner_dimension(bufs[i]);
        for (int d = 0; d < bufs[i]->dimensions; d++) {
            if (d != inner[i] && bufs[i]->dim[d].extent > 1) {
                period = gcd(period, int64_t(bufs[i]->dim[d].stride) * element_bytes(bufs[i]));
            }
        }
    }
    if (period == 0) return true;
    __int128 begin[2], length[2];
    for (int i = 0; i < 2; i++) {
        const int64_t eb = element_bytes(bufs[i]);
        __int128 reach = 0;
        if (inner[i] >= 0) {
            const halo_dimension_t &dim = bufs[i]->dim[inner[i]];
            reach = static_cast<__int128>(dim.extent - 1) * dim.stride * eb;
        }
        begin[i] = address(bufs[i]) + (reach < 0 ? reach : 0);
        length[i] = (reach < 0 ? -reach : reach) + eb;
        if (length[i] >= period) return true;
    }
    const __int128 d = modulo(begin[1] - begin[0], period);
    return d < length[0] || d + length[1] > period;
}

}  // namespace

extern "C" {

int32_t halo_check_buffers_disjoint(void *user_context, const halo_buffer_t *a, const char *a_name,
                                    const halo_buffer_t *b, const char *b_name, int32_t b_is_output) {
    const ByteSpan sa = byte_span(a), sb = byte_span(b);
    if (sa.begin == sa.end || sb.begin == sb.end) return 0;
    if (sa.end <= sb.begin || sb.end <= sa.begin) return 0;
    if (!meet_modulo_strides(a, b) || !meet_modulo_rows(a, b)) return 0;
    char msg[640];
    std::snprintf(msg, sizeof msg,
                  "output '%s' shares memory with %s '%s' (the output spans bytes [%p, %p), '%s' spans [%p, %p)): "
                  "pipelines do not run in place, since a point may be computed again from a value already "
                  "overwritten; give '%s' a buffer of its own (copy it back afterwards if needed)",
                  a_name, b_is_output ? "output" : "input", b_name,
                  reinterpret_cast<void *>(static_cast<uintptr_t>(sa.begin)),
                  reinterpret_cast<void *>(static_cast<uintptr_t>(sa.end)), b_name,
                  reinterpret_cast<void *>(static_cast<uintptr_t>(sb.begin)),
                  reinterpret_cast<void *>(static_cast<uintptr_t>(sb.end)), a_name);
    halo_error(user_context, msg);
    return halo_error_code_buffers_overlap;
}

int32_t halo_check_outputs_disjoint(void *user_context, const halo_buffer_t *const *buffers,
                                    const char *const *names, int32_t num_outputs, int32_t num_buffers) {
    // A few buffers (most pipelines): every (output, other) pair in the reporting order, with
    // no allocation at each call.
    if (num_buffers <= 4) {
        for (int32_t p = 0; p < num_outputs; p++) {
            for (int32_t q = p + 1; q < num_buffers; q++) {
                const int32_t code = halo_check_buffers_disjoint(user_context, buffers[p], names[p], buffers[q],
                                                                 names[q], q < num_outputs ? 1 : 0);
                if (code != 0) return code;
            }
        }
        return 0;
    }
    struct Span {
        ByteSpan bytes;
        int32_t index;
    };
    std::vector<Span> spans;
    for (int32_t i = 0; i < num_buffers; i++) {
        const ByteSpan s = byte_span(buffers[i]);
        if (s.begin != s.end) spans.push_back({s, i});
    }
    std::sort(spans.begin(), spans.end(), [](const Span &a, const Span &b) { return a.bytes.begin < b.bytes.begin; });
    // Pairs (output, other) whose spans intersect, keyed by the order of the pairwise checks.
    std::vector<std::pair<int64_t, std::pair<int32_t, int32_t>>> candidates;
    for (size_t k = 0; k < spans.size(); k++) {
        for (size_t l = k + 1; l < spans.size() && spans[l].bytes.begin < spans[k].bytes.end; l++) {
            int32_t p = std::min(spans[k].index, spans[l].index), q = std::max(spans[k].index, spans[l].index);
            if (p >= num_outputs) continue;  // two inputs
            const int64_t key = (int64_t(p) * 2 + (q >= num_outputs ? 1 : 0)) * (int64_t(num_buffers) + 1) + q;
            candidates.push_back({key, {p, q}});
        }
    }
    std::sort(candidates.begin(), candidates.end());
    for (const auto &[key, pair] : candidates) {
        const auto [p, q] = pair;
        const int32_t code = halo_check_buffers_disjoint(user_context, buffers[p], names[p], buffers[q], names[q],
                                                         q < num_outputs ? 1 : 0);
        if (code != 0) return code;
    }
    return 0;
}

int32_t halo_error_out_of_memory(void *user_context, const char *func_name, int64_t bytes) {
    char msg[256];
    if (bytes < 0) {
        std::snprintf(msg, sizeof msg,
                      "out of memory: '%s' would need more than 2^63 bytes; request a smaller output "
                      "or compute '%s' in smaller pieces (compute_at a tile loop)",
                      func_name, func_name);
    } else {
        std::snprintf(msg, sizeof msg, "out of memory allocating %lld bytes for '%s'",
                      static_cast<long long>(bytes), func_name);
    }
    halo_error(user_context, msg);
    return halo_error_code_out_of_memory;
}

void *halo_malloc(void *user_context, int64_t bytes) {
    // No machine has 2^62 bytes; refusing here keeps the rounding below from overflowing.
    if (bytes < 0 || bytes > (int64_t(1) << 62)) return nullptr;
    // 64-byte alignment suits AVX-512 loads; round the size up as aligned_alloc requires.
    size_t size = static_cast<size_t>((bytes + 63) / 64 * 64);
    if (size == 0) size = 64;
    auto *ctx = static_cast<halo_context_t *>(user_context);
    if (ctx && ctx->arena) return ctx->arena->allocate(size, size_t(bytes));
    void *p = std::aligned_alloc(64, size);
    if (p) mark_usable(p, size_t(bytes), size);
    return p;
}

void halo_free(void *user_context, void *ptr) {
    auto *ctx = static_cast<halo_context_t *>(user_context);
    if (ctx && ctx->arena && ctx->arena->release(ptr)) return;
    std::free(ptr);
}

halo_arena_t *halo_arena_create(void) { return new halo_arena_t(); }
void halo_arena_destroy(halo_arena_t *arena) { delete arena; }
int64_t halo_arena_bytes(const halo_arena_t *arena) {
    return arena ? arena->bytes() : 0;
}
void halo_arena_end_call(halo_arena_t *arena, int keep_calls) {
    if (arena) arena->end_call(keep_calls);
}
void halo_arena_release_unused(halo_arena_t *arena) {
    if (arena) arena->release_unused();
}
void halo_context_end_call(halo_context_t *context) {
    if (context) halo_arena_end_call(context->arena, HALO_ARENA_KEEP_CALLS);
}

}  // extern "C"
