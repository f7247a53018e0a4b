import mockstate as S
import torch

def silu(x): return x._same()

def scaled_dot_product_attention(q, k, v, is_causal=False, enable_gqa=False):
    assert q.shape[0] == k.shape[0] == v.shape[0] and k.shape[1] == v.shape[1]
    assert q.shape[1] == k.shape[1] or (enable_gqa and q.shape[1] % k.shape[1] == 0)
    assert q.shape[3] == k.shape[3] and k.shape[2] == v.shape[2]
    assert not is_causal or q.shape[2] == k.shape[2]
    S.gpu_work(200e-6)
    return torch.Tensor(q.shape[:3] + v.shape[3:], q.dtype)


def layer_norm(x, shape, weight=None, bias=None, eps=None):
    assert tuple(x.shape[-len(shape):]) == tuple(shape)
    return x._same()


def rms_norm(x, shape, weight=None, eps=None):
    assert tuple(x.shape[-len(shape):]) == tuple(shape)
    return x._same()
