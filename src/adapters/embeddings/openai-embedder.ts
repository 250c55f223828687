import { Embeddings } from '@langchain/core/embeddings';
import type { OpenAIEmbeddings } from '@langchain/openai';

export interface OpenAIEmbedderOptions {
  model: string;
  apiKey: string;
  /** null: OpenAI itself. */
  baseUrl: string | null;
}

/**
 * An OpenAI-compatible endpoint's embeddings (LangChain's OpenAIEmbeddings), its client imported
 * on the first call: @langchain/openai and the openai SDK are hundreds of modules that every
 * offline run (the hashed embedder) would otherwise load at start (issue 49).
 */
export class OpenAIEmbedder extends Embeddings {
  private client: Promise<OpenAIEmbeddings> | null = null;

  constructor(private readonly opts: OpenAIEmbedderOptions) {
    super({});
  }

  async embedDocuments(texts: string[]): Promise<number[][]> {
    return (await this.openai()).embedDocuments(texts);
  }

  async embedQuery(text: string): Promise<number[]> {
    return (await this.openai()).embedQuery(text);
  }

  private openai(): Promise<OpenAIEmbeddings> {
    const { model, apiKey, baseUrl } = this.opts;
    this.client ??= import('@langchain/openai').then(({ OpenAIEmbeddings }) => new OpenAIEmbeddings({ model, apiKey, configuration: baseUrl ? { baseURL: baseUrl } : {} }));
    return this.client;
  }
}
