# The dxgraph server (see docker-compose.yml). Neo4j runs in its own container.
FROM node:20-bookworm-slim

# faiss-node's binding is built against Debian's FAISS when its prebuilt binary is unavailable.
RUN apt-get update \
 && apt-get install -y --no-install-recommends libfaiss-dev libblas-dev liblapack-dev g++ make python3 ca-certificates \
 && rm -rf /var/lib/apt/lists/*

WORKDIR /app
COPY package.json package-lock.json ./
RUN npm ci --ignore-scripts --no-audit --no-fund
COPY scripts ./scripts
RUN bash scripts/build-faiss-node.sh && npm rebuild esbuild

COPY . .
RUN mkdir -p /data/dxgraph && chown -R node:node /data/dxgraph
USER node
ENV NODE_ENV=production HOST=0.0.0.0 PORT=8080 DXGRAPH_DATA_DIR=/data/dxgraph
EXPOSE 8080
CMD ["node", "bin/dxgraph.js", "serve"]
