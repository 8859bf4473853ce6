#include "app_generators.h"

HALO_REGISTER_GENERATOR(apps::ConvReluGenerator, "conv_relu")
HALO_REGISTER_GENERATOR(apps::BrightenGenerator, "brighten")
HALO_REGISTER_GENERATOR(apps::CnnBlockGenerator, "cnn_block")
