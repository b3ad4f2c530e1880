"""The three models the deployment tests serve every way (dygraph, paddle.jit, the predictors,
ONNX): an MLP, a LeNet-style CNN with batch norm, and a Transformer-encoder block.
MODELS maps a name to (layer class, InputSpec shape, an input shape)."""
import paddle
import paddle.nn.functional as F
from paddle import nn


class MLP(nn.Layer):
    def __init__(self):
        super().__init__()
        self.fc1 = nn.Linear(16, 32)
        self.fc2 = nn.Linear(32, 10)

    def forward(self, x):
        return self.fc2(F.relu(self.fc1(x)))


class LeNet(nn.Layer):
    def __init__(self):
        super().__init__()
        self.conv1 = nn.Conv2D(1, 6, 3, padding=1)
        self.bn1 = nn.BatchNorm2D(6)
        self.pool = nn.MaxPool2D(2, 2)
        self.conv2 = nn.Conv2D(6, 16, 3)
        self.relu = nn.ReLU()
        self.fc = nn.Linear(16 * 3 * 3, 10)

    def forward(self, x):
        x = self.pool(self.relu(self.bn1(self.conv1(x))))
        x = self.pool(self.relu(self.conv2(x)))
        return self.fc(paddle.flatten(x, 1))


class EncoderBlock(nn.Layer):
    def __init__(self, d_model=16, heads=2):
        super().__init__()
        self.heads = heads
        self.qkv = nn.Linear(d_model, 3 * d_model)
        self.proj = nn.Linear(d_model, d_model)
        self.norm1 = nn.LayerNorm(d_model)
        self.norm2 = nn.LayerNorm(d_model)
        self.ff1 = nn.Linear(d_model, 4 * d_model)
        self.ff2 = nn.Linear(4 * d_model, d_model)
        self.gelu = nn.GELU()
        self.dropout = nn.Dropout(0.1)

    def forward(self, x):
        d_model = x.shape[-1]
        head_dim = d_model // self.heads
        qkv = paddle.reshape(self.qkv(x), [0, 0, 3, self.heads, head_dim])
        qkv = paddle.transpose(qkv, [2, 0, 3, 1, 4])
        q, k, v = qkv[0], qkv[1], qkv[2]
        scores = paddle.matmul(q, k, transpose_y=True) * (head_dim ** -0.5)
        attn = self.dropout(F.softmax(scores, axis=-1))
        ctx = paddle.transpose(paddle.matmul(attn, v), [0, 2, 1, 3])
        ctx = paddle.reshape(ctx, [0, 0, d_model])
        x = self.norm1(x + self.dropout(self.proj(ctx)))
        return self.norm2(x + self.dropout(self.ff2(self.gelu(self.ff1(x)))))


MODELS = {
    "mlp": (MLP, [None, 16], [4, 16]),
    "lenet": (LeNet, [None, 1, 16, 16], [3, 1, 16, 16]),
    "encoder": (EncoderBlock, [None, 7, 16], [2, 7, 16]),
}
