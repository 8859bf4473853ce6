// PNG files in and out of Buffers (through libpng). Images are x, y[, c] with channels last.
#pragma once

#include <string>

#include "Buffer.h"

namespace halo {

// Failures (a missing, truncated or corrupt file, a full disk) throw CompileError naming the file
// and the reason.

// Loads any PNG (palettes and low bit depths are expanded) as gray (2-D), gray+alpha, RGB or
// RGBA. Images over 1 GiB of pixel data (width x height x channels x bytes per sample) are
// refused, as are files too short for the size their header claims: both before allocating.
Buffer<uint8_t> load_png_u8(const std::string &path);
Buffer<uint16_t> load_png_u16(const std::string &path);
// Saves a 2-D (gray) or 3-D (1-4 channels) buffer. On failure an incomplete regular file is
// removed.
void save_png(const Buffer<uint8_t> &image, const std::string &path);
void save_png(const Buffer<uint16_t> &image, const std::string &path);

// Float images in [0, 1] from and to integer images.
Buffer<float> to_float(const Buffer<uint8_t> &image);
Buffer<uint8_t> from_float(const Buffer<float> &image);

}  // namespace halo
