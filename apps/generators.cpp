#include "app_generators.h"

HALO_REGISTER_GENERATOR(apps::ConvReluGenerator, "conv_relu")
HALO_REGISTER_GENERATOR(apps::BrightenGenerator, "brighten")
HALO_REGISTER_GENERATOR(apps::BlurRangeGenerator, "blur_range")
HALO_REGISTER_GENERATOR(apps::CnnBlockGenerator, "cnn_block")
HALO_REGISTER_GENERATOR(apps::BlurGenerator, "blur")
HALO_REGISTER_GENERATOR(apps::HarrisGenerator, "harris")
HALO_REGISTER_GENERATOR(apps::UnsharpGenerator, "unsharp")
HALO_REGISTER_GENERATOR(apps::LocalLaplacianGenerator, "local_laplacian")
HALO_REGISTER_GENERATOR(apps::DwPwGenerator, "dw_pw")
