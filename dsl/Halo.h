// Halo: the one header a user includes.
#pragma once

// The C math library too, as Halide.h brings it in: ported code calls sqrtf, logf, ceilf...
#include <cmath>

#include "Boundary.h"
#include "Buffer.h"
#include "CompilerHints.h"
#include "Error.h"
#include "ExternFunction.h"
#include "Func.h"
#include "IROperator.h"
#include "IRPrinter.h"
#include "ImageIO.h"
#include "MathFunctions.h"
#include "Mux.h"
#include "Param.h"
#include "ParamMap.h"
#include "Print.h"
#include "Random.h"
#include "Require.h"
#include "Type.h"
#include "Var.h"
#include "codegen/Pipeline.h"
#include "lower/ReferenceEvaluator.h"
#include "lower/AutoSchedule.h"
#include "lower/RedundancyReport.h"
#include "Generator.h"
#include "codegen/AOT.h"
