// The runtime including the compiler.
#include "dialects/Tile/TileOps.h"
