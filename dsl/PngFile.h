// PNG files through libpng, as raw samples. Every failure becomes a CompileError naming the
// file and giving the reason, libpng's own text included ("IHDR: CRC error", "Invalid IHDR
// data (Image width is zero in IHDR)", ...). ImageIO turns the samples into Buffers.
#pragma once

#include <cstdint>
#include <functional>
#include <string>
#include <vector>

namespace halo {
namespace internal {

// The most pixel data a PNG may decode to (width x height x channels x bytes per sample, in
// the larger of the file's and the caller's sample size). A corrupt or hostile header can
// claim 2^31 x 2^31 pixels; such files are refused before anything is allocated.
constexpr uint64_t max_png_pixel_bytes = uint64_t(1) << 30;  // 1 GiB

struct PngSamples {
    int width = 0, height = 0, channels = 0;  // channels 1 to 4 (gray, gray+alpha, RGB, RGBA)
    int bit_depth = 0;                        // 8 or 16 (lower depths and palettes are expanded)
    // Rows top to bottom, channels interleaved; 16-bit samples in host (little-endian) order.
    std::vector<uint8_t> data;
};

// Reads any PNG. `caller_sample_bytes` is the size of the samples the caller will convert
// to, so that the size limit also covers the caller's copy.
PngSamples read_png_samples(const std::string &path, int caller_sample_bytes);

// Writes a width x height image of 1 to 4 channels at bit depth 8 or 16. fill_row(y, row)
// fills one row of width * channels samples (16-bit ones in host order).
void write_png_samples(const std::string &path, int width, int height, int channels, int bit_depth,
                       const std::function<void(int y, uint8_t *row)> &fill_row);

}  // namespace internal
}  // namespace halo
