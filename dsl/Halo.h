// Halo: the one header a user includes.
#pragma once

#include "Boundary.h"
#include "Buffer.h"
#include "Error.h"
#include "Func.h"
#include "IROperator.h"
#include "IRPrinter.h"
#include "ImageIO.h"
#include "Param.h"
#include "ParamMap.h"
#include "Type.h"
#include "Var.h"
#include "codegen/Pipeline.h"
#include "lower/ReferenceEvaluator.h"
#include "lower/RedundancyReport.h"
#include "Generator.h"
#include "codegen/AOT.h"
