class constexpr: pass
float32 = "fp32"
