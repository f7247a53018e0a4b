from . import functional
from . import attention
