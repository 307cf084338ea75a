#!/usr/bin/env node
// proctor's local model server: OpenAI chat completions with tool calls, on loopback, over
// node-llama-cpp's prebuilt CPU binaries. Nothing is downloaded or built at run time.
//
//   node scripts/local-model/server.mjs --model FILE.gguf [--port 8080] [--name NAME]
//                                       [--ctx TOKENS] [--threads N] [--host 127.0.0.1]
//
// - The model's own chat template (in the GGUF) picks node-llama-cpp's chat wrapper, so tools
//   are offered and calls are read in the model family's native syntax (Qwen's <tool_call>,
//   Llama 3.1's, Mistral's, Functionary's, ...), and a call's arguments are generated under a
//   grammar made from the tool's JSON Schema.
// - tool_choice "required" (or a named function) starts the reply inside the call syntax: the
//   model must call an offered tool. "auto" lets it answer in text; "none" offers no tools.
// - Whole replies only (no streaming), one request at a time; a client that hangs up stops its
//   generation. usage holds prompt, completion and cached (reused prefix) tokens.
// - It prints "proctor-model-server: listening on http://HOST:PORT/v1 (model NAME)" once it
//   serves (with --port 0 the port is the free one it got), and one line per request on stderr.
import http from "node:http";
import { randomUUID } from "node:crypto";
import { basename } from "node:path";
import { parseArgs } from "node:util";
import { getLlama, LlamaChat, LlamaLogLevel, LlamaText, resolveChatWrapper } from "node-llama-cpp";

const LOOPBACK = new Set(["127.0.0.1", "localhost", "::1"]);
const MAX_BODY = 64 * 1024 * 1024;

function options() {
    const { values } = parseArgs({
        options: {
            model: { type: "string" },
            host: { type: "string", default: "127.0.0.1" },
            port: { type: "string", default: "8080" },
            name: { type: "string" },
            ctx: { type: "string" },
            threads: { type: "string" },
        },
    });
    if (!values.model) fail("--model FILE.gguf is required");
    if (!LOOPBACK.has(values.host) && !values.host.startsWith("127."))
        fail(`--host ${values.host} is not a loopback address: this server is for this machine only`);
    const port = Number(values.port);
    if (!Number.isInteger(port) || port < 0 || port > 65535) fail(`--port ${values.port} is not a port`);
    return {
        model: values.model,
        host: values.host,
        port,
        name: values.name ?? basename(values.model).replace(/\.gguf$/i, ""),
        ctx: values.ctx ? positive("--ctx", values.ctx) : undefined,
        threads: values.threads ? positive("--threads", values.threads) : undefined,
    };
}

function positive(flag, text) {
    const n = Number(text);
    if (!Number.isInteger(n) || n < 1) fail(`${flag} ${text} is not a positive whole number`);
    return n;
}

function fail(message) {
    process.stderr.write(`proctor-model-server: ${message}\n`);
    process.exit(2);
}

class BadRequest extends Error {}

function log(line) {
    process.stderr.write(`proctor-model-server: POST /v1/chat/completions ${line}\n`);
}

function seconds(started) {
    return `${((performance.now() - started) / 1000).toFixed(1)}s`;
}

// --- requests to node-llama-cpp -------------------------------------------------------------

function text(content, where) {
    if (content == null) return "";
    if (typeof content === "string") return content;
    if (!Array.isArray(content)) throw new BadRequest(`${where}: content is neither text nor parts`);
    return content
        .map((part) => {
            if (part?.type === "text") return part.text ?? "";
            throw new BadRequest(`${where}: a ${part?.type} part; this server reads text only`);
        })
        .join("");
}

// The chat history node-llama-cpp keeps: a tool result sits inside the model turn that made the call.
function history(messages) {
    if (!Array.isArray(messages) || messages.length === 0)
        throw new BadRequest("messages: at least one message is required");
    const out = [];
    const pending = new Map();
    messages.forEach((msg, i) => {
        const where = `messages[${i}]`;
        switch (msg?.role) {
            case "system":
            case "developer":
                out.push({ type: "system", text: text(msg.content, where) });
                break;
            case "user":
                out.push({ type: "user", text: text(msg.content, where) });
                break;
            case "assistant": {
                const response = [];
                const said = text(msg.content, where);
                if (said) response.push(said);
                for (const call of msg.tool_calls ?? []) {
                    const item = {
                        type: "functionCall",
                        name: call.function?.name,
                        params: parseArguments(call.function?.arguments, where),
                        result: "",
                    };
                    response.push(item);
                    pending.set(call.id, item);
                }
                out.push({ type: "model", response });
                break;
            }
            case "tool": {
                const item = pending.get(msg.tool_call_id);
                if (!item) throw new BadRequest(`${where}: tool_call_id ${msg.tool_call_id} answers no call`);
                item.result = text(msg.content, where);
                break;
            }
            default:
                throw new BadRequest(`${where}: unknown role ${msg?.role}`);
        }
    });
    return out;
}

function parseArguments(args, where) {
    if (args == null || args === "") return {};
    try {
        return typeof args === "string" ? JSON.parse(args) : args;
    } catch {
        return args; // a model's malformed call, kept as the text it was
    }
}

// JSON Schema as pydantic writes it, made into the subset node-llama-cpp's grammar takes.
const KEEP = new Set([
    "type", "properties", "required", "additionalProperties", "items", "prefixItems",
    "minItems", "maxItems", "enum", "const", "oneOf", "$ref", "$defs", "description",
    "minLength", "maxLength",
]);

function grammarSchema(schema) {
    if (Array.isArray(schema)) return schema.map(grammarSchema);
    if (schema === null || typeof schema !== "object") return schema;
    const out = {};
    for (const [key, value] of Object.entries(schema)) {
        if (key === "anyOf") out.oneOf = value.map(grammarSchema);
        else if (key === "properties" || key === "$defs")
            out[key] = Object.fromEntries(Object.entries(value).map(([k, v]) => [k, grammarSchema(v)]));
        else if (KEEP.has(key)) out[key] = grammarSchema(value);
    }
    if (out.enum !== undefined || out.const !== undefined) delete out.type;
    if (out.type === "object" && out.properties === undefined && out.additionalProperties === undefined)
        out.properties = {};
    return out;
}

// The grammar makes a model write every property, optional ones too ("ref": "", "x": null):
// an optional one left empty or null is dropped, as a model that left it out would have.
function withoutBlanks(params, schema) {
    if (params === null || typeof params !== "object" || Array.isArray(params)) return params ?? {};
    const required = new Set(Array.isArray(schema?.required) ? schema.required : []);
    return Object.fromEntries(
        Object.entries(params).filter(([k, v]) => required.has(k) || (v !== "" && v !== null)),
    );
}

function functions(tools) {
    if (tools == null) return undefined;
    if (!Array.isArray(tools)) throw new BadRequest("tools: not a list");
    const out = {};
    tools.forEach((tool, i) => {
        const fn = tool?.function;
        if (tool?.type !== "function" || typeof fn?.name !== "string")
            throw new BadRequest(`tools[${i}]: not a function tool with a name`);
        out[fn.name] = {
            description: fn.description,
            params: grammarSchema(fn.parameters ?? { type: "object", properties: {} }),
        };
    });
    return Object.keys(out).length > 0 ? out : undefined;
}

// "required" (or one named function): the turn starts inside the wrapper's call syntax, so the
// grammar makes the model name an offered function and give arguments its schema allows.
function forcedCall(wrapper) {
    const prefix = wrapper.settings.functions?.call?.prefix;
    if (prefix == null) return wrapper;
    return new Proxy(wrapper, {
        get(target, prop) {
            if (prop === "generateContextState")
                return (opts) => ({
                    ...target.generateContextState(opts),
                    prefixTriggers: undefined,
                    noPrefixTrigger: { type: "functionCall", inject: LlamaText(prefix) },
                });
            const value = Reflect.get(target, prop, target);
            return typeof value === "function" ? value.bind(target) : value;
        },
    });
}

// --- the server -------------------------------------------------------------------------------

async function main() {
    const opts = options();
    const llama = await getLlama({ gpu: false, build: "never", logLevel: LlamaLogLevel.warn });
    const model = await llama.loadModel({ modelPath: opts.model });
    const context = await model.createContext({
        contextSize: opts.ctx ?? { max: 32768 },
        threads: opts.threads,
    });
    const sequence = context.getSequence();
    const wrapper = resolveChatWrapper(model);
    const chat = new LlamaChat({ contextSequence: sequence, chatWrapper: wrapper });
    const forced = new LlamaChat({ contextSequence: sequence, chatWrapper: forcedCall(wrapper) });
    let queue = Promise.resolve();

    async function complete(body, signal) {
        if (body?.stream) throw new BadRequest("stream: this server answers whole replies only");
        const hist = history(body?.messages);
        if (hist.at(-1)?.type !== "model") hist.push({ type: "model", response: [] });
        let fns = body?.tool_choice === "none" ? undefined : functions(body?.tools);
        let force = body?.tool_choice === "required";
        if (typeof body?.tool_choice === "object" && body.tool_choice !== null && fns) {
            const name = body.tool_choice.function?.name;
            if (!(name in fns)) throw new BadRequest(`tool_choice: ${name} is not an offered tool`);
            fns = { [name]: fns[name] };
            force = true;
        }
        const chosen = force && fns ? forced : chat;
        // The prompt as the engine evaluates it; the tokens it already holds are the cached part.
        const prompt = chosen.chatWrapper
            .generateContextState({ chatHistory: hist, availableFunctions: fns })
            .contextText.tokenize(model.tokenizer);
        const held = sequence.contextTokens;
        let cached = 0;
        while (cached < held.length && cached < prompt.length && held[cached] === prompt[cached]) cached++;
        const before = sequence.tokenMeter.getState();
        const res = await chosen.generateResponse(hist, {
            functions: fns,
            maxParallelFunctionCalls: body?.parallel_tool_calls === false ? 1 : undefined,
            maxTokens: body?.max_completion_tokens ?? body?.max_tokens ?? undefined,
            temperature: body?.temperature ?? undefined,
            topP: body?.top_p ?? undefined,
            seed: body?.seed ?? undefined,
            signal,
        });
        const completion = sequence.tokenMeter.diff(before).usedOutputTokens;
        const calls = (res.functionCalls ?? []).map((call) => ({
            id: `call_${randomUUID().replaceAll("-", "")}`,
            type: "function",
            function: {
                name: call.functionName,
                arguments: JSON.stringify(withoutBlanks(call.params, fns?.[call.functionName]?.params)),
            },
        }));
        const content = typeof res.response === "string" ? res.response : "";
        const reason = calls.length ? "tool_calls" : res.metadata?.stopReason === "maxTokens" ? "length" : "stop";
        return {
            id: `chatcmpl-${randomUUID()}`,
            object: "chat.completion",
            created: Math.floor(Date.now() / 1000),
            model: opts.name,
            choices: [
                {
                    index: 0,
                    message: { role: "assistant", content, ...(calls.length ? { tool_calls: calls } : {}) },
                    finish_reason: reason,
                },
            ],
            usage: {
                prompt_tokens: prompt.length,
                completion_tokens: completion,
                total_tokens: prompt.length + completion,
                prompt_tokens_details: { cached_tokens: cached },
            },
        };
    }

    const server = http.createServer((req, res) => {
        const send = (status, payload) => {
            if (res.writableEnded || res.destroyed) return;
            res.writeHead(status, { "content-type": "application/json" });
            res.end(JSON.stringify(payload));
        };
        const path = new URL(req.url, "http://x").pathname.replace(/\/+$/, "");
        if (req.method === "GET" && (path === "/v1/models" || path === "/models"))
            return send(200, { object: "list", data: [{ id: opts.name, object: "model", owned_by: "local" }] });
        if (req.method === "GET" && path === "/health") return send(200, { status: "ok" });
        if (req.method !== "POST" || !(path === "/v1/chat/completions" || path === "/chat/completions"))
            return send(404, { error: { message: `no route ${req.method} ${path}`, type: "not_found" } });
        const chunks = [];
        let size = 0;
        req.on("data", (chunk) => {
            size += chunk.length;
            if (size > MAX_BODY) req.destroy();
            else chunks.push(chunk);
        });
        req.on("end", () => {
            let body;
            try {
                body = JSON.parse(Buffer.concat(chunks).toString("utf8"));
            } catch {
                return send(400, { error: { message: "the body is not JSON", type: "invalid_request_error" } });
            }
            // A client that hangs up (a timed-out request) stops its generation.
            const hangup = new AbortController();
            res.on("close", () => {
                if (!res.writableFinished) hangup.abort(new Error("the client hung up"));
            });
            const turn = queue.then(async () => {
                if (hangup.signal.aborted) return log("hung up before its turn");
                const started = performance.now();
                try {
                    const reply = await complete(body, hangup.signal);
                    send(200, reply);
                    const { usage, choices } = reply;
                    const calls = (choices[0].message.tool_calls ?? []).map((c) => c.function.name);
                    log(
                        `200 prompt=${usage.prompt_tokens} cached=${usage.prompt_tokens_details.cached_tokens}` +
                            ` completion=${usage.completion_tokens} calls=${calls.join(",") || "-"}` +
                            ` finish=${choices[0].finish_reason} ${seconds(started)}`,
                    );
                } catch (err) {
                    if (hangup.signal.aborted) return log(`hung up after ${seconds(started)}`);
                    const bad = err instanceof BadRequest;
                    const message = String(err?.message ?? err);
                    send(bad ? 400 : 500, {
                        error: { message, type: bad ? "invalid_request_error" : "server_error" },
                    });
                    log(`${bad ? 400 : 500} ${message}`);
                }
            });
            queue = turn;
        });
    });
    server.listen(opts.port, opts.host, () => {
        const { port } = server.address();
        const host = opts.host.includes(":") ? `[${opts.host}]` : opts.host;
        process.stdout.write(`proctor-model-server: listening on http://${host}:${port}/v1 (model ${opts.name})\n`);
    });
    // A generation in progress is abandoned: its client's reply would only be a hang-up.
    const stop = () => {
        server.close();
        server.closeAllConnections();
        process.exit(0);
    };
    process.on("SIGTERM", stop);
    process.on("SIGINT", stop);
}

main().catch((err) => fail(err?.message ?? String(err)));
