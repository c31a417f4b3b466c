SHOW VECTOR INDEXES YIELD name, options
RETURN name, options.indexConfig['vector.quantization.enabled'] AS quantized
