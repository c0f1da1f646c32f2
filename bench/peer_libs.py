# peer_libs.py: how each peer library computes a bench case, the way its users
# write it. Each peer's load() imports the library (ImportError: not installed) and
# returns its name and version; prepare(case, ops) returns (before_sample, call), call()
# giving the output, or raises Unsupported saying why the peer cannot run the case.
import numpy as np


class Unsupported(Exception):
    pass


COORDS = ("argwhere", "nonzero")


class Numexpr:
    """numexpr.evaluate on numexpr's own threads; the leaky alpha is a float32 variable,
    as a literal 0.01 is a double in numexpr and makes the whole result float64."""
    TYPES = (np.bool_, np.int32, np.int64, np.float32, np.float64)

    def __init__(self, threads):
        self.threads = threads
        self.variant, self.heading = f"numexpr_{threads}t", f"numexpr {threads}t"

    def load(self):
        import numexpr
        self.ne = numexpr
        return f"numexpr {numexpr.__version__}"

    def prepare(self, case, ops):
        if case.kind in COORDS:
            raise Unsupported("no argwhere or nonzero")
        if case.dtype not in self.TYPES:
            raise Unsupported(f"no {case.dtype_name}")
        if case.kind == "where":
            expr, names = "where(c, x, y)", dict(ops)
        else:
            expr, names = "where(x > 0, x, x * alpha)", dict(ops, alpha=np.float32(0.01))
        ne, threads = self.ne, self.threads
        return (lambda: ne.set_num_threads(threads)), (lambda: ne.evaluate(expr, local_dict=names))


class OnnxRuntime:
    """An InferenceSession of a one-case ONNX graph, sequential execution, on
    intra_op_num_threads threads. argwhere is NonZero then Transpose (NonZero gives
    [rank, n], argwhere [n, rank]); leaky relu the Where graph users write."""
    ONNX_TYPES = {np.bool_: 9, np.float32: 1, np.float16: 10, np.int64: 7, np.uint8: 2}

    def __init__(self, threads):
        self.threads = threads
        self.variant, self.heading = f"ort_{threads}t", f"ort {threads}t"

    def load(self):
        import onnxruntime
        from onnx import helper
        self.ort, self.helper = onnxruntime, helper
        return f"onnxruntime {onnxruntime.__version__}"

    def model(self, case, ops):
        h = self.helper
        inputs = [h.make_tensor_value_info(n, self.ONNX_TYPES[a.dtype.type], list(a.shape))
                  for n, a in ops.items()]
        consts = []
        if case.kind == "where":
            nodes = [h.make_node("Where", ["c", "x", "y"], ["o"])]
        elif case.kind == "leaky":
            consts = [h.make_tensor("zero", 1, [], [0.0]), h.make_tensor("alpha", 1, [], [0.01])]
            nodes = [h.make_node("Greater", ["x", "zero"], ["g"]), h.make_node("Mul", ["x", "alpha"], ["m"]),
                     h.make_node("Where", ["g", "x", "m"], ["o"])]
        elif case.kind == "argwhere":
            nodes = [h.make_node("NonZero", ["c"], ["nz"]), h.make_node("Transpose", ["nz"], ["o"])]
        else:
            nodes = [h.make_node("NonZero", ["c"], ["o"])]
        out_type = 7 if case.kind in COORDS else self.ONNX_TYPES[case.dtype]
        graph = h.make_graph(nodes, case.kind, inputs, [h.make_tensor_value_info("o", out_type, None)], consts)
        return h.make_model(graph, opset_imports=[h.make_opsetid("", 17)], ir_version=8)

    def prepare(self, case, ops):
        so = self.ort.SessionOptions()
        so.intra_op_num_threads, so.inter_op_num_threads = self.threads, 1
        so.execution_mode = self.ort.ExecutionMode.ORT_SEQUENTIAL
        so.log_severity_level = 3
        try:
            sess = self.ort.InferenceSession(self.model(case, ops).SerializeToString(), so,
                                             providers=["CPUExecutionProvider"])
        except Exception as e:  # onnxruntime has no kernel for the type: NOT_IMPLEMENTED
            raise Unsupported(str(e).splitlines()[0][:100])
        return None, (lambda: sess.run(["o"], ops)[0])


class Jax:
    """jax.jit of jnp.where, inputs already on the device, 64-bit types on;
    XLA picks its own threads."""
    variant, heading = "jax", "jax.jit"

    def load(self):
        import jax
        jax.config.update("jax_enable_x64", True)      # else int64 becomes int32
        import jax.numpy as jnp
        self.jax, self.jnp = jax, jnp
        return f"jax {jax.__version__}"

    def prepare(self, case, ops):
        jax, jnp = self.jax, self.jnp
        if case.kind in COORDS:
            raise Unsupported("an output shape that depends on the data cannot be jitted (without size=)")
        if case.kind == "where":
            f = jax.jit(jnp.where)
        else:
            f = jax.jit(lambda x: jnp.where(x > 0, x, x * 0.01))   # 0.01 is weak: stays float32
        args = [jax.device_put(a) for a in ops.values()]
        return None, (lambda: f(*args).block_until_ready())


PEERS = [Numexpr(1), Numexpr(2), OnnxRuntime(1), OnnxRuntime(2), Jax()]
