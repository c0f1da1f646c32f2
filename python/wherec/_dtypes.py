"""_dtypes.py: wherec's dtype codes (ONNX TensorProto.DataType, include/wherec/dtypes.h)
and their numpy dtypes; bfloat16 is ml_dtypes.bfloat16, imported when first needed."""
import numpy as np

NAMES = {1: "float", 2: "uint8", 3: "int8", 4: "uint16", 5: "int16", 6: "int32", 7: "int64",
         8: "string", 9: "bool", 10: "float16", 11: "double", 12: "uint32", 13: "uint64",
         14: "complex64", 15: "complex128", 16: "bfloat16"}
STRING, BFLOAT16 = 8, 16

_NUMPY = {1: np.float32, 2: np.uint8, 3: np.int8, 4: np.uint16, 5: np.int16, 6: np.int32,
          7: np.int64, 9: np.bool_, 10: np.float16, 11: np.float64, 12: np.uint32,
          13: np.uint64, 14: np.complex64, 15: np.complex128}


def bfloat16():
    """ml_dtypes.bfloat16, or an ImportError that says how to get it."""
    try:
        import ml_dtypes
    except ImportError:
        raise ImportError("bfloat16 arrays need ml_dtypes: pip install ml-dtypes "
                          "(or pip install 'wherec[bfloat16]')") from None
    return np.dtype(ml_dtypes.bfloat16)


def to_numpy(code: int):
    """The numpy dtype of a wherec dtype code; strings are object arrays of str or bytes."""
    if code == BFLOAT16:
        return bfloat16()
    if code == STRING:
        return np.dtype(object)
    return np.dtype(_NUMPY[code])
