// Generated from the mdq API OpenAPI document by `pnpm --filter @mdq/client generate`. Do not edit.

export interface paths {
    "/health": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        /** Liveness: the process answers */
        get: {
            parameters: {
                query?: never;
                header?: never;
                path?: never;
                cookie?: never;
            };
            requestBody?: never;
            responses: {
                /** @description Default Response */
                200: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": {
                            /** @enum {string} */
                            status: "ok";
                            network: string;
                            /** @description mdq's version (the root package.json's) */
                            version: string;
                            /** @description the git commit built, or 'unknown' */
                            commit: string;
                        };
                    };
                };
            };
        };
        put?: never;
        post?: never;
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/ready": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        /**
         * Readiness: database reachable and the indexed data within the lag threshold
         * @description Lag is measured against the chain tip the indexer last saw: versions behind it, and seconds (zero when caught up, else the age of the newest indexed block; at least the age of the tip reading, so a stopped indexer shows a growing lag). Null while no indexer has reported a tip. tipVersion is never below indexedVersion: a tip reading older than the index is raised to it.
         */
        get: {
            parameters: {
                query?: never;
                header?: never;
                path?: never;
                cookie?: never;
            };
            requestBody?: never;
            responses: {
                /** @description Default Response */
                200: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": {
                            /** @enum {string} */
                            status: "ready" | "unavailable" | "lagging";
                            database: boolean;
                            indexedVersion: number | null;
                            /** Format: date-time */
                            indexedAt: string | null;
                            tipVersion: number | null;
                            lagVersions: number | null;
                            lagSeconds: number | null;
                            maxLagSeconds: number;
                        };
                    };
                };
                /** @description Default Response */
                503: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": {
                            /** @enum {string} */
                            status: "ready" | "unavailable" | "lagging";
                            database: boolean;
                            indexedVersion: number | null;
                            /** Format: date-time */
                            indexedAt: string | null;
                            tipVersion: number | null;
                            lagVersions: number | null;
                            lagSeconds: number | null;
                            maxLagSeconds: number;
                        };
                    };
                };
            };
        };
        put?: never;
        post?: never;
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/api/media/{id}": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        /** A token's or collection's image, resized and re-encoded (webp, avif or png) */
        get: {
            parameters: {
                query?: {
                    /** @description width (and height bound), pixels */
                    w?: 64 | 256 | 512 | 1024;
                    format?: "webp" | "avif" | "png";
                };
                header?: never;
                path: {
                    /** @description token id or collection id */
                    id: string;
                };
                cookie?: never;
            };
            requestBody?: never;
            responses: {
                /** @description the thumbnail, with a strong ETag and a week of public caching */
                200: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "image/webp": string;
                        "image/avif": string;
                        "image/png": string;
                    };
                };
                /** @description Not Modified: the If-None-Match ETag still names the answer; no body */
                304: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content?: never;
                };
                /** @description Default Response */
                400: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": {
                            statusCode: number;
                            error: string;
                            code: string;
                            message: string;
                        };
                    };
                };
                /** @description Default Response */
                404: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": {
                            statusCode: number;
                            error: string;
                            code: string;
                            message: string;
                        };
                    };
                };
                /** @description Default Response */
                422: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": {
                            statusCode: number;
                            error: string;
                            code: string;
                            message: string;
                        };
                    };
                };
                /** @description Default Response */
                503: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": {
                            statusCode: number;
                            error: string;
                            code: string;
                            message: string;
                        };
                    };
                };
            };
        };
        put?: never;
        post?: never;
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/api/token-balances": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        /**
         * A wallet's token balances
         * @description `address` is required (the spec lists it both ways; an unscoped dump of every balance would be unbounded). `serviceInfo=true` adds the active listing, lootbox id, rarity tier and rarity rank.
         */
        get: {
            parameters: {
                query: {
                    /** @description wallet address (required: an unscoped balance dump would be unbounded) */
                    address: string;
                    /** @description only balances above zero */
                    greaterThanZeroBalance?: boolean;
                    /** @description collection name */
                    collection?: string;
                    /** @description creator address */
                    creator?: string;
                    /** @description add active listing, lootbox id, rarity tier and rank */
                    serviceInfo?: boolean;
                    /** @description page number, from 1 */
                    page?: number;
                    /** @description page size, at most 100 */
                    limit?: number;
                    /** @description opaque: nextCursor of the previous page (keyset paging; page is then only echoed) */
                    cursor?: string;
                };
                header?: never;
                path?: never;
                cookie?: never;
            };
            requestBody?: never;
            responses: {
                /** @description Default Response */
                200: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": {
                            data: {
                                tokenId: string;
                                tokenName: string | null;
                                tokenStandard: string;
                                /** @description u64 in the smallest unit, decimal string */
                                propertyVersion: string;
                                creator: string | null;
                                collection: string | null;
                                collectionId: string | null;
                                tokenUri: string | null;
                                /**
                                 * Format: uri
                                 * @description absolute URL of the 256-pixel WebP thumbnail (GET /media/{id}); set w=64|256|512|1024 and format=webp|avif|png for others; null without a URI
                                 */
                                thumbnailUrl?: string | null;
                                owner: string;
                                /** @description u64 in the smallest unit, decimal string */
                                amount: string;
                                isSoulbound: boolean;
                                /** @description held for the wallet by its active listing (escrow or listing object) */
                                listed: boolean;
                                version: number;
                                serviceInfo?: {
                                    lootboxId: number | null;
                                    rarityTier: string | null;
                                    rarityRank: number | null;
                                    listing: {
                                        listingId: string;
                                        marketplace: string;
                                        /** @description u64 in the smallest unit, decimal string */
                                        price: string;
                                        coinType: string | null;
                                        /** @description u64 in the smallest unit, decimal string */
                                        quantity: string;
                                        /**
                                         * Format: date-time
                                         * @description ISO-8601 UTC
                                         */
                                        listedAt: string | null;
                                    } | null;
                                };
                            }[];
                            pagination: {
                                page: number;
                                limit: number;
                                total: number;
                                hasMore: boolean;
                                nextCursor: string | null;
                            };
                        };
                    };
                };
                /** @description Not Modified: the If-None-Match ETag still names the answer; no body */
                304: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content?: never;
                };
                /** @description Default Response */
                400: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": {
                            statusCode: number;
                            error: string;
                            code: string;
                            message: string;
                        };
                    };
                };
                /** @description Default Response */
                401: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": {
                            statusCode: number;
                            error: string;
                            code: string;
                            message: string;
                        };
                    };
                };
                /** @description Default Response */
                404: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": {
                            statusCode: number;
                            error: string;
                            code: string;
                            message: string;
                        };
                    };
                };
                /** @description Default Response */
                429: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": {
                            statusCode: number;
                            error: string;
                            code: string;
                            message: string;
                        };
                    };
                };
                /** @description Default Response */
                503: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": {
                            statusCode: number;
                            error: string;
                            code: string;
                            message: string;
                        };
                    };
                };
            };
        };
        put?: never;
        post?: never;
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/api/tokens-by-lootbox": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        /** Tokens revealed from a lootbox */
        get: {
            parameters: {
                query: {
                    /** @description numeric lootbox id */
                    lootboxId: number;
                    /** @description page number, from 1 */
                    page?: number;
                    /** @description page size, at most 100 */
                    limit?: number;
                    /** @description opaque: nextCursor of the previous page (keyset paging; page is then only echoed) */
                    cursor?: string;
                };
                header?: never;
                path?: never;
                cookie?: never;
            };
            requestBody?: never;
            responses: {
                /** @description Default Response */
                200: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": {
                            data: {
                                /** @description AIP-40 long form: 0x + 64 lowercase hex */
                                tokenId: string;
                                tokenName: string;
                                tokenStandard: string;
                                creator: string | null;
                                collection: string | null;
                                collectionId: string;
                                collectionUrl: string | null;
                                tokenUri: string | null;
                                /**
                                 * Format: uri
                                 * @description absolute URL of the 256-pixel WebP thumbnail (GET /media/{id}); set w=64|256|512|1024 and format=webp|avif|png for others; null without a URI
                                 */
                                thumbnailUrl?: string | null;
                                /** @description the off-chain document's image, as written (ipfs://, ar://, https://, data:) */
                                image: string | null;
                                /** @description the document's animation_url, as written */
                                animationUrl: string | null;
                                /** @description the token's off-chain metadata document: fetched, failed (and why) or pending */
                                metadata: {
                                    /**
                                     * @description pending: not fetched yet; error: the last fetch failed (see error)
                                     * @enum {string}
                                     */
                                    status: "ok" | "error" | "pending";
                                    /** @description why the last fetch failed (404, not JSON, too large, timed out…) */
                                    error: string | null;
                                    /**
                                     * Format: date-time
                                     * @description ISO-8601 UTC
                                     */
                                    fetchedAt: string | null;
                                    /** @description the spec validation report's verdict (see validate-metadata) */
                                    valid: boolean | null;
                                };
                                description: string | null;
                                /** @description u64 in the smallest unit, decimal string */
                                supply: string | null;
                                /** @description u64 in the smallest unit, decimal string */
                                maximum: string | null;
                                isBurned: boolean;
                                lootboxId: number | null;
                                /** @description lootbox tier the token was revealed with */
                                rarityTier: string | null;
                                /**
                                 * Format: date-time
                                 * @description ISO-8601 UTC
                                 */
                                mintedAt: string | null;
                                /** @description chain version of the mint (or last change) */
                                version: number;
                            }[];
                            pagination: {
                                page: number;
                                limit: number;
                                total: number;
                                hasMore: boolean;
                                nextCursor: string | null;
                            };
                        };
                    };
                };
                /** @description Not Modified: the If-None-Match ETag still names the answer; no body */
                304: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content?: never;
                };
                /** @description Default Response */
                400: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": {
                            statusCode: number;
                            error: string;
                            code: string;
                            message: string;
                        };
                    };
                };
                /** @description Default Response */
                401: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": {
                            statusCode: number;
                            error: string;
                            code: string;
                            message: string;
                        };
                    };
                };
                /** @description Default Response */
                404: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": {
                            statusCode: number;
                            error: string;
                            code: string;
                            message: string;
                        };
                    };
                };
                /** @description Default Response */
                429: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": {
                            statusCode: number;
                            error: string;
                            code: string;
                            message: string;
                        };
                    };
                };
                /** @description Default Response */
                503: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": {
                            statusCode: number;
                            error: string;
                            code: string;
                            message: string;
                        };
                    };
                };
            };
        };
        put?: never;
        post?: never;
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/api/tokens-by-collection": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        /** Tokens of a collection, by name */
        get: {
            parameters: {
                query: {
                    /** @description creator address of the collection */
                    creator: string;
                    /** @description collection name */
                    collection: string;
                    /** @description page number, from 1 */
                    page?: number;
                    /** @description page size, at most 100 */
                    limit?: number;
                    /** @description opaque: nextCursor of the previous page (keyset paging; page is then only echoed) */
                    cursor?: string;
                };
                header?: never;
                path?: never;
                cookie?: never;
            };
            requestBody?: never;
            responses: {
                /** @description Default Response */
                200: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": {
                            data: {
                                /** @description AIP-40 long form: 0x + 64 lowercase hex */
                                tokenId: string;
                                tokenName: string;
                                tokenStandard: string;
                                creator: string | null;
                                collection: string | null;
                                collectionId: string;
                                collectionUrl: string | null;
                                tokenUri: string | null;
                                /**
                                 * Format: uri
                                 * @description absolute URL of the 256-pixel WebP thumbnail (GET /media/{id}); set w=64|256|512|1024 and format=webp|avif|png for others; null without a URI
                                 */
                                thumbnailUrl?: string | null;
                                /** @description the off-chain document's image, as written (ipfs://, ar://, https://, data:) */
                                image: string | null;
                                /** @description the document's animation_url, as written */
                                animationUrl: string | null;
                                /** @description the token's off-chain metadata document: fetched, failed (and why) or pending */
                                metadata: {
                                    /**
                                     * @description pending: not fetched yet; error: the last fetch failed (see error)
                                     * @enum {string}
                                     */
                                    status: "ok" | "error" | "pending";
                                    /** @description why the last fetch failed (404, not JSON, too large, timed out…) */
                                    error: string | null;
                                    /**
                                     * Format: date-time
                                     * @description ISO-8601 UTC
                                     */
                                    fetchedAt: string | null;
                                    /** @description the spec validation report's verdict (see validate-metadata) */
                                    valid: boolean | null;
                                };
                                description: string | null;
                                /** @description u64 in the smallest unit, decimal string */
                                supply: string | null;
                                /** @description u64 in the smallest unit, decimal string */
                                maximum: string | null;
                                isBurned: boolean;
                                lootboxId: number | null;
                                /** @description lootbox tier the token was revealed with */
                                rarityTier: string | null;
                                /**
                                 * Format: date-time
                                 * @description ISO-8601 UTC
                                 */
                                mintedAt: string | null;
                                /** @description chain version of the mint (or last change) */
                                version: number;
                            }[];
                            pagination: {
                                page: number;
                                limit: number;
                                total: number;
                                hasMore: boolean;
                                nextCursor: string | null;
                            };
                        };
                    };
                };
                /** @description Not Modified: the If-None-Match ETag still names the answer; no body */
                304: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content?: never;
                };
                /** @description Default Response */
                400: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": {
                            statusCode: number;
                            error: string;
                            code: string;
                            message: string;
                        };
                    };
                };
                /** @description Default Response */
                401: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": {
                            statusCode: number;
                            error: string;
                            code: string;
                            message: string;
                        };
                    };
                };
                /** @description Default Response */
                404: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": {
                            statusCode: number;
                            error: string;
                            code: string;
                            message: string;
                        };
                    };
                };
                /** @description Default Response */
                429: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": {
                            statusCode: number;
                            error: string;
                            code: string;
                            message: string;
                        };
                    };
                };
                /** @description Default Response */
                503: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": {
                            statusCode: number;
                            error: string;
                            code: string;
                            message: string;
                        };
                    };
                };
            };
        };
        put?: never;
        post?: never;
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/api/tokens-by-lootbox-creator": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        /** Tokens of the lootbox (creator, collection) */
        get: {
            parameters: {
                query: {
                    /** @description creator address of the lootbox */
                    creator: string;
                    /** @description collection name of the lootbox */
                    collection: string;
                    /** @description page number, from 1 */
                    page?: number;
                    /** @description page size, at most 100 */
                    limit?: number;
                    /** @description opaque: nextCursor of the previous page (keyset paging; page is then only echoed) */
                    cursor?: string;
                };
                header?: never;
                path?: never;
                cookie?: never;
            };
            requestBody?: never;
            responses: {
                /** @description Default Response */
                200: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": {
                            data: {
                                /** @description AIP-40 long form: 0x + 64 lowercase hex */
                                tokenId: string;
                                tokenName: string;
                                tokenStandard: string;
                                creator: string | null;
                                collection: string | null;
                                collectionId: string;
                                collectionUrl: string | null;
                                tokenUri: string | null;
                                /**
                                 * Format: uri
                                 * @description absolute URL of the 256-pixel WebP thumbnail (GET /media/{id}); set w=64|256|512|1024 and format=webp|avif|png for others; null without a URI
                                 */
                                thumbnailUrl?: string | null;
                                /** @description the off-chain document's image, as written (ipfs://, ar://, https://, data:) */
                                image: string | null;
                                /** @description the document's animation_url, as written */
                                animationUrl: string | null;
                                /** @description the token's off-chain metadata document: fetched, failed (and why) or pending */
                                metadata: {
                                    /**
                                     * @description pending: not fetched yet; error: the last fetch failed (see error)
                                     * @enum {string}
                                     */
                                    status: "ok" | "error" | "pending";
                                    /** @description why the last fetch failed (404, not JSON, too large, timed out…) */
                                    error: string | null;
                                    /**
                                     * Format: date-time
                                     * @description ISO-8601 UTC
                                     */
                                    fetchedAt: string | null;
                                    /** @description the spec validation report's verdict (see validate-metadata) */
                                    valid: boolean | null;
                                };
                                description: string | null;
                                /** @description u64 in the smallest unit, decimal string */
                                supply: string | null;
                                /** @description u64 in the smallest unit, decimal string */
                                maximum: string | null;
                                isBurned: boolean;
                                lootboxId: number | null;
                                /** @description lootbox tier the token was revealed with */
                                rarityTier: string | null;
                                /**
                                 * Format: date-time
                                 * @description ISO-8601 UTC
                                 */
                                mintedAt: string | null;
                                /** @description chain version of the mint (or last change) */
                                version: number;
                            }[];
                            pagination: {
                                page: number;
                                limit: number;
                                total: number;
                                hasMore: boolean;
                                nextCursor: string | null;
                            };
                        };
                    };
                };
                /** @description Not Modified: the If-None-Match ETag still names the answer; no body */
                304: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content?: never;
                };
                /** @description Default Response */
                400: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": {
                            statusCode: number;
                            error: string;
                            code: string;
                            message: string;
                        };
                    };
                };
                /** @description Default Response */
                401: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": {
                            statusCode: number;
                            error: string;
                            code: string;
                            message: string;
                        };
                    };
                };
                /** @description Default Response */
                404: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": {
                            statusCode: number;
                            error: string;
                            code: string;
                            message: string;
                        };
                    };
                };
                /** @description Default Response */
                429: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": {
                            statusCode: number;
                            error: string;
                            code: string;
                            message: string;
                        };
                    };
                };
                /** @description Default Response */
                503: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": {
                            statusCode: number;
                            error: string;
                            code: string;
                            message: string;
                        };
                    };
                };
            };
        };
        put?: never;
        post?: never;
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/api/token-collection-by-lootbox-creator": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        /** The lootbox's collection: supply, minted, owners, floor, volume */
        get: {
            parameters: {
                query: {
                    /** @description creator address of the collection */
                    creator: string;
                    /** @description collection name */
                    collection: string;
                };
                header?: never;
                path?: never;
                cookie?: never;
            };
            requestBody?: never;
            responses: {
                /** @description Default Response */
                200: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": {
                            data: {
                                collectionId: string;
                                tokenStandard: string;
                                creator: string;
                                collection: string;
                                collectionUrl: string | null;
                                /**
                                 * Format: uri
                                 * @description absolute URL of the 256-pixel WebP thumbnail (GET /media/{id}); set w=64|256|512|1024 and format=webp|avif|png for others; null without a URI
                                 */
                                thumbnailUrl?: string | null;
                                lootboxId: number | null;
                                description: string | null;
                                /** @description live (unburned) tokens, decimal string */
                                currentSupply: string;
                                /** @description u64 in the smallest unit, decimal string */
                                maxSupply: string | null;
                                /** @description tokens ever minted, burned included, decimal string */
                                totalMinted: string;
                                /** @description distinct holders; a listed token counts for its seller */
                                owners: number;
                                listedCount: number;
                                /** @description u64 in the smallest unit, decimal string */
                                floorPrice: string | null;
                                /** @description u64 in the smallest unit, decimal string */
                                volume: string;
                                sales: number;
                                /**
                                 * Format: date-time
                                 * @description ISO-8601 UTC
                                 */
                                createdAt: string | null;
                                version: number;
                                lootbox: {
                                    lootboxId: number;
                                    creator: string;
                                    collection: string;
                                    collectionId: string;
                                    /** @description u64 in the smallest unit, decimal string */
                                    price: string;
                                    coinType: string;
                                    /** @description u64 in the smallest unit, decimal string */
                                    maxSupply: string;
                                    /** @description u64 in the smallest unit, decimal string */
                                    minted: string;
                                    /** @description u64 in the smallest unit, decimal string */
                                    purchased: string;
                                    /** @description u64 in the smallest unit, decimal string */
                                    revenue: string;
                                    /**
                                     * Format: date-time
                                     * @description ISO-8601 UTC
                                     */
                                    mintStart: string;
                                    /**
                                     * Format: date-time
                                     * @description ISO-8601 UTC
                                     */
                                    mintEnd: string | null;
                                    paused: boolean;
                                    /** @enum {string} */
                                    status: "upcoming" | "active" | "sold_out" | "ended";
                                    /**
                                     * Format: date-time
                                     * @description ISO-8601 UTC
                                     */
                                    createdAt: string;
                                    version: number;
                                } | null;
                            };
                        };
                    };
                };
                /** @description Not Modified: the If-None-Match ETag still names the answer; no body */
                304: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content?: never;
                };
                /** @description Default Response */
                400: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": {
                            statusCode: number;
                            error: string;
                            code: string;
                            message: string;
                        };
                    };
                };
                /** @description Default Response */
                401: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": {
                            statusCode: number;
                            error: string;
                            code: string;
                            message: string;
                        };
                    };
                };
                /** @description Default Response */
                404: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": {
                            statusCode: number;
                            error: string;
                            code: string;
                            message: string;
                        };
                    };
                };
                /** @description Default Response */
                429: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": {
                            statusCode: number;
                            error: string;
                            code: string;
                            message: string;
                        };
                    };
                };
                /** @description Default Response */
                503: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": {
                            statusCode: number;
                            error: string;
                            code: string;
                            message: string;
                        };
                    };
                };
            };
        };
        put?: never;
        post?: never;
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/api/token/activity": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        /** A token's timeline: mint, transfers, listings, sales, offers, burns (newest first) */
        get: {
            parameters: {
                query: {
                    /** @description token name */
                    tokenName: string;
                    /** @description creator address */
                    creator: string;
                    /** @description collection name */
                    collection: string;
                    /** @description v1 property version */
                    propertyVersion?: string;
                    /** @description page number, from 1 */
                    page?: number;
                    /** @description page size, at most 100 */
                    limit?: number;
                    /** @description opaque: nextCursor of the previous page (keyset paging; page is then only echoed) */
                    cursor?: string;
                };
                header?: never;
                path?: never;
                cookie?: never;
            };
            requestBody?: never;
            responses: {
                /** @description Default Response */
                200: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": {
                            data: {
                                /** @enum {string} */
                                source: "token" | "market";
                                /** @description mint, transfer, deposit, withdraw, burn… or place_listing, fill_listing… */
                                kind: string;
                                tokenId: string | null;
                                tokenStandard: string | null;
                                /** @description u64 in the smallest unit, decimal string */
                                propertyVersion: string | null;
                                collectionId: string | null;
                                from: string | null;
                                to: string | null;
                                seller: string | null;
                                buyer: string | null;
                                /** @description u64 in the smallest unit, decimal string */
                                price: string | null;
                                coinType: string | null;
                                /** @description u64 in the smallest unit, decimal string */
                                quantity: string;
                                marketplace: string | null;
                                /**
                                 * Format: date-time
                                 * @description ISO-8601 UTC
                                 */
                                timestamp: string;
                                version: number;
                                eventIndex: number;
                                /** @description wash-trade reasons of a sale (self_trade, round_trip, token_churn, seller_funded); empty when clean or not a sale */
                                flags: string[];
                            }[];
                            pagination: {
                                page: number;
                                limit: number;
                                total: number;
                                hasMore: boolean;
                                nextCursor: string | null;
                            };
                        };
                    };
                };
                /** @description Not Modified: the If-None-Match ETag still names the answer; no body */
                304: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content?: never;
                };
                /** @description Default Response */
                400: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": {
                            statusCode: number;
                            error: string;
                            code: string;
                            message: string;
                        };
                    };
                };
                /** @description Default Response */
                401: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": {
                            statusCode: number;
                            error: string;
                            code: string;
                            message: string;
                        };
                    };
                };
                /** @description Default Response */
                404: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": {
                            statusCode: number;
                            error: string;
                            code: string;
                            message: string;
                        };
                    };
                };
                /** @description Default Response */
                429: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": {
                            statusCode: number;
                            error: string;
                            code: string;
                            message: string;
                        };
                    };
                };
                /** @description Default Response */
                503: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": {
                            statusCode: number;
                            error: string;
                            code: string;
                            message: string;
                        };
                    };
                };
            };
        };
        put?: never;
        post?: never;
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/api/token/traits": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        /** A token's traits with each value's count and share in its collection */
        get: {
            parameters: {
                query: {
                    /** @description collection name */
                    collection: string;
                    /** @description creator address */
                    creator: string;
                    /** @description token name */
                    tokenName: string;
                    /** @description URL of the collection */
                    collectionUrl?: string;
                    /** @description v1 property version */
                    propertyVersion?: string;
                    /** @description token standard */
                    tokenStandard?: "v1" | "v2";
                };
                header?: never;
                path?: never;
                cookie?: never;
            };
            requestBody?: never;
            responses: {
                /** @description Default Response */
                200: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": {
                            data: {
                                tokenId: string;
                                tokenName: string;
                                tokenStandard: string;
                                /** @description u64 in the smallest unit, decimal string */
                                propertyVersion: string;
                                creator: string | null;
                                collection: string | null;
                                collectionId: string;
                                /** @description live tokens in the collection */
                                collectionSize: number;
                                rarityRank: number | null;
                                rarityScore: number | null;
                                traits: {
                                    traitType: string;
                                    value: string;
                                    /**
                                     * @description the on-chain property map, or the off-chain document (the chain wins where both name a trait)
                                     * @enum {string}
                                     */
                                    source: "chain" | "document";
                                    /** @description tokens of the collection with this value */
                                    count: number;
                                    /** @description count / collectionSize, 0..1 */
                                    share: number;
                                }[];
                            };
                        };
                    };
                };
                /** @description Not Modified: the If-None-Match ETag still names the answer; no body */
                304: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content?: never;
                };
                /** @description Default Response */
                400: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": {
                            statusCode: number;
                            error: string;
                            code: string;
                            message: string;
                        };
                    };
                };
                /** @description Default Response */
                401: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": {
                            statusCode: number;
                            error: string;
                            code: string;
                            message: string;
                        };
                    };
                };
                /** @description Default Response */
                404: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": {
                            statusCode: number;
                            error: string;
                            code: string;
                            message: string;
                        };
                    };
                };
                /** @description Default Response */
                429: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": {
                            statusCode: number;
                            error: string;
                            code: string;
                            message: string;
                        };
                    };
                };
                /** @description Default Response */
                503: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": {
                            statusCode: number;
                            error: string;
                            code: string;
                            message: string;
                        };
                    };
                };
            };
        };
        put?: never;
        post?: never;
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/api/market/token-history-by-tokenId": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        /** A token's transaction history by id (token and market events, newest first) */
        get: {
            parameters: {
                query: {
                    /** @description token id (token data id or token object address) */
                    tokenId: string;
                    /** @description page number, from 1 */
                    page?: number;
                    /** @description page size, at most 100 */
                    limit?: number;
                    /** @description opaque: nextCursor of the previous page (keyset paging; page is then only echoed) */
                    cursor?: string;
                };
                header?: never;
                path?: never;
                cookie?: never;
            };
            requestBody?: never;
            responses: {
                /** @description Default Response */
                200: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": {
                            data: {
                                /** @enum {string} */
                                source: "token" | "market";
                                /** @description mint, transfer, deposit, withdraw, burn… or place_listing, fill_listing… */
                                kind: string;
                                tokenId: string | null;
                                tokenStandard: string | null;
                                /** @description u64 in the smallest unit, decimal string */
                                propertyVersion: string | null;
                                collectionId: string | null;
                                from: string | null;
                                to: string | null;
                                seller: string | null;
                                buyer: string | null;
                                /** @description u64 in the smallest unit, decimal string */
                                price: string | null;
                                coinType: string | null;
                                /** @description u64 in the smallest unit, decimal string */
                                quantity: string;
                                marketplace: string | null;
                                /**
                                 * Format: date-time
                                 * @description ISO-8601 UTC
                                 */
                                timestamp: string;
                                version: number;
                                eventIndex: number;
                                /** @description wash-trade reasons of a sale (self_trade, round_trip, token_churn, seller_funded); empty when clean or not a sale */
                                flags: string[];
                            }[];
                            pagination: {
                                page: number;
                                limit: number;
                                total: number;
                                hasMore: boolean;
                                nextCursor: string | null;
                            };
                        };
                    };
                };
                /** @description Not Modified: the If-None-Match ETag still names the answer; no body */
                304: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content?: never;
                };
                /** @description Default Response */
                400: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": {
                            statusCode: number;
                            error: string;
                            code: string;
                            message: string;
                        };
                    };
                };
                /** @description Default Response */
                401: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": {
                            statusCode: number;
                            error: string;
                            code: string;
                            message: string;
                        };
                    };
                };
                /** @description Default Response */
                404: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": {
                            statusCode: number;
                            error: string;
                            code: string;
                            message: string;
                        };
                    };
                };
                /** @description Default Response */
                429: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": {
                            statusCode: number;
                            error: string;
                            code: string;
                            message: string;
                        };
                    };
                };
                /** @description Default Response */
                503: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": {
                            statusCode: number;
                            error: string;
                            code: string;
                            message: string;
                        };
                    };
                };
            };
        };
        put?: never;
        post?: never;
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/api/market/listing-card": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        /** One token as a listing card: listing, status, floor, best bid, last sale, price history */
        get: {
            parameters: {
                query: {
                    /** @description token id */
                    tokenId: string;
                    /** @description token standard */
                    tokenStandard: "v1" | "v2";
                };
                header?: never;
                path?: never;
                cookie?: never;
            };
            requestBody?: never;
            responses: {
                /** @description Default Response */
                200: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": {
                            data: {
                                token: {
                                    /** @description AIP-40 long form: 0x + 64 lowercase hex */
                                    tokenId: string;
                                    tokenName: string;
                                    tokenStandard: string;
                                    creator: string | null;
                                    collection: string | null;
                                    collectionId: string;
                                    collectionUrl: string | null;
                                    tokenUri: string | null;
                                    /**
                                     * Format: uri
                                     * @description absolute URL of the 256-pixel WebP thumbnail (GET /media/{id}); set w=64|256|512|1024 and format=webp|avif|png for others; null without a URI
                                     */
                                    thumbnailUrl?: string | null;
                                    /** @description the off-chain document's image, as written (ipfs://, ar://, https://, data:) */
                                    image: string | null;
                                    /** @description the document's animation_url, as written */
                                    animationUrl: string | null;
                                    /** @description the token's off-chain metadata document: fetched, failed (and why) or pending */
                                    metadata: {
                                        /**
                                         * @description pending: not fetched yet; error: the last fetch failed (see error)
                                         * @enum {string}
                                         */
                                        status: "ok" | "error" | "pending";
                                        /** @description why the last fetch failed (404, not JSON, too large, timed out…) */
                                        error: string | null;
                                        /**
                                         * Format: date-time
                                         * @description ISO-8601 UTC
                                         */
                                        fetchedAt: string | null;
                                        /** @description the spec validation report's verdict (see validate-metadata) */
                                        valid: boolean | null;
                                    };
                                    description: string | null;
                                    /** @description u64 in the smallest unit, decimal string */
                                    supply: string | null;
                                    /** @description u64 in the smallest unit, decimal string */
                                    maximum: string | null;
                                    isBurned: boolean;
                                    lootboxId: number | null;
                                    /** @description lootbox tier the token was revealed with */
                                    rarityTier: string | null;
                                    /**
                                     * Format: date-time
                                     * @description ISO-8601 UTC
                                     */
                                    mintedAt: string | null;
                                    /** @description chain version of the mint (or last change) */
                                    version: number;
                                };
                                listing: {
                                    listingId: string;
                                    marketplace: string;
                                    tokenId: string;
                                    tokenName: string | null;
                                    tokenStandard: string | null;
                                    /** @description u64 in the smallest unit, decimal string */
                                    propertyVersion: string | null;
                                    creator: string | null;
                                    collection: string | null;
                                    collectionId: string | null;
                                    tokenUri: string | null;
                                    /**
                                     * Format: uri
                                     * @description absolute URL of the 256-pixel WebP thumbnail (GET /media/{id}); set w=64|256|512|1024 and format=webp|avif|png for others; null without a URI
                                     */
                                    thumbnailUrl?: string | null;
                                    seller: string | null;
                                    /** @description u64 in the smallest unit, decimal string */
                                    price: string;
                                    coinType: string;
                                    /** @description u64 in the smallest unit, decimal string */
                                    quantity: string;
                                    /** @description active, sold or cancelled */
                                    status: string;
                                    /**
                                     * Format: date-time
                                     * @description ISO-8601 UTC
                                     */
                                    listedAt: string | null;
                                    version: number | null;
                                } | null;
                                /** @description active, sold, cancelled; null when never listed */
                                status: string | null;
                                owners: {
                                    owner: string;
                                    /** @description u64 in the smallest unit, decimal string */
                                    amount: string;
                                }[];
                                /** @description u64 in the smallest unit, decimal string */
                                floorPrice: string | null;
                                bestBid: {
                                    /** @enum {string} */
                                    kind: "token_offer" | "collection_offer";
                                    offerId: string;
                                    marketplace: string;
                                    buyer: string;
                                    /** @description u64 in the smallest unit, decimal string */
                                    price: string;
                                    coinType: string;
                                    /** @description u64 in the smallest unit, decimal string */
                                    quantity: string;
                                    tokenId: string | null;
                                    tokenName: string | null;
                                    creator: string | null;
                                    collection: string | null;
                                    collectionId: string | null;
                                    status: string;
                                    /**
                                     * Format: date-time
                                     * @description ISO-8601 UTC
                                     */
                                    expiresAt: string | null;
                                    /**
                                     * Format: date-time
                                     * @description ISO-8601 UTC
                                     */
                                    timestamp: string | null;
                                    version: number | null;
                                } | null;
                                lastSale: {
                                    /** @description u64 in the smallest unit, decimal string */
                                    price: string;
                                    coinType: string | null;
                                    seller: string | null;
                                    buyer: string | null;
                                    /**
                                     * Format: date-time
                                     * @description ISO-8601 UTC
                                     */
                                    timestamp: string;
                                    version: number;
                                } | null;
                                priceHistory: {
                                    /** @description u64 in the smallest unit, decimal string */
                                    price: string;
                                    coinType: string | null;
                                    seller: string | null;
                                    buyer: string | null;
                                    /**
                                     * Format: date-time
                                     * @description ISO-8601 UTC
                                     */
                                    timestamp: string;
                                    version: number;
                                }[];
                                rarityRank: number | null;
                            };
                        };
                    };
                };
                /** @description Not Modified: the If-None-Match ETag still names the answer; no body */
                304: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content?: never;
                };
                /** @description Default Response */
                400: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": {
                            statusCode: number;
                            error: string;
                            code: string;
                            message: string;
                        };
                    };
                };
                /** @description Default Response */
                401: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": {
                            statusCode: number;
                            error: string;
                            code: string;
                            message: string;
                        };
                    };
                };
                /** @description Default Response */
                404: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": {
                            statusCode: number;
                            error: string;
                            code: string;
                            message: string;
                        };
                    };
                };
                /** @description Default Response */
                429: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": {
                            statusCode: number;
                            error: string;
                            code: string;
                            message: string;
                        };
                    };
                };
                /** @description Default Response */
                503: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": {
                            statusCode: number;
                            error: string;
                            code: string;
                            message: string;
                        };
                    };
                };
            };
        };
        put?: never;
        post?: never;
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/api/market/listings-by-collection": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        /** A collection's active listings, cheapest first (creator + collection, or lootboxId) */
        get: {
            parameters: {
                query?: {
                    /** @description creator address of the collection (with collection) */
                    creator?: string;
                    /** @description collection name (with creator) */
                    collection?: string;
                    /** @description alternative to creator + collection */
                    lootboxId?: number;
                    /** @description page number, from 1 */
                    page?: number;
                    /** @description page size, at most 100 */
                    limit?: number;
                    /** @description opaque: nextCursor of the previous page (keyset paging; page is then only echoed) */
                    cursor?: string;
                };
                header?: never;
                path?: never;
                cookie?: never;
            };
            requestBody?: never;
            responses: {
                /** @description Default Response */
                200: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": {
                            data: {
                                listingId: string;
                                marketplace: string;
                                tokenId: string;
                                tokenName: string | null;
                                tokenStandard: string | null;
                                /** @description u64 in the smallest unit, decimal string */
                                propertyVersion: string | null;
                                creator: string | null;
                                collection: string | null;
                                collectionId: string | null;
                                tokenUri: string | null;
                                /**
                                 * Format: uri
                                 * @description absolute URL of the 256-pixel WebP thumbnail (GET /media/{id}); set w=64|256|512|1024 and format=webp|avif|png for others; null without a URI
                                 */
                                thumbnailUrl?: string | null;
                                seller: string | null;
                                /** @description u64 in the smallest unit, decimal string */
                                price: string;
                                coinType: string;
                                /** @description u64 in the smallest unit, decimal string */
                                quantity: string;
                                /** @description active, sold or cancelled */
                                status: string;
                                /**
                                 * Format: date-time
                                 * @description ISO-8601 UTC
                                 */
                                listedAt: string | null;
                                version: number | null;
                            }[];
                            pagination: {
                                page: number;
                                limit: number;
                                total: number;
                                hasMore: boolean;
                                nextCursor: string | null;
                            };
                        };
                    };
                };
                /** @description Not Modified: the If-None-Match ETag still names the answer; no body */
                304: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content?: never;
                };
                /** @description Default Response */
                400: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": {
                            statusCode: number;
                            error: string;
                            code: string;
                            message: string;
                        };
                    };
                };
                /** @description Default Response */
                401: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": {
                            statusCode: number;
                            error: string;
                            code: string;
                            message: string;
                        };
                    };
                };
                /** @description Default Response */
                404: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": {
                            statusCode: number;
                            error: string;
                            code: string;
                            message: string;
                        };
                    };
                };
                /** @description Default Response */
                429: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": {
                            statusCode: number;
                            error: string;
                            code: string;
                            message: string;
                        };
                    };
                };
                /** @description Default Response */
                503: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": {
                            statusCode: number;
                            error: string;
                            code: string;
                            message: string;
                        };
                    };
                };
            };
        };
        put?: never;
        post?: never;
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/api/market/bids-by-collection": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        /** A collection's live bids (token and collection offers), highest first */
        get: {
            parameters: {
                query?: {
                    /** @description creator address of the collection (with collection) */
                    creator?: string;
                    /** @description collection name (with creator) */
                    collection?: string;
                    /** @description alternative to creator + collection */
                    lootboxId?: number;
                    /** @description page number, from 1 */
                    page?: number;
                    /** @description page size, at most 100 */
                    limit?: number;
                    /** @description opaque: nextCursor of the previous page (keyset paging; page is then only echoed) */
                    cursor?: string;
                };
                header?: never;
                path?: never;
                cookie?: never;
            };
            requestBody?: never;
            responses: {
                /** @description Default Response */
                200: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": {
                            data: {
                                /** @enum {string} */
                                kind: "token_offer" | "collection_offer";
                                offerId: string;
                                marketplace: string;
                                buyer: string;
                                /** @description u64 in the smallest unit, decimal string */
                                price: string;
                                coinType: string;
                                /** @description u64 in the smallest unit, decimal string */
                                quantity: string;
                                tokenId: string | null;
                                tokenName: string | null;
                                creator: string | null;
                                collection: string | null;
                                collectionId: string | null;
                                status: string;
                                /**
                                 * Format: date-time
                                 * @description ISO-8601 UTC
                                 */
                                expiresAt: string | null;
                                /**
                                 * Format: date-time
                                 * @description ISO-8601 UTC
                                 */
                                timestamp: string | null;
                                version: number | null;
                            }[];
                            pagination: {
                                page: number;
                                limit: number;
                                total: number;
                                hasMore: boolean;
                                nextCursor: string | null;
                            };
                        };
                    };
                };
                /** @description Not Modified: the If-None-Match ETag still names the answer; no body */
                304: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content?: never;
                };
                /** @description Default Response */
                400: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": {
                            statusCode: number;
                            error: string;
                            code: string;
                            message: string;
                        };
                    };
                };
                /** @description Default Response */
                401: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": {
                            statusCode: number;
                            error: string;
                            code: string;
                            message: string;
                        };
                    };
                };
                /** @description Default Response */
                404: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": {
                            statusCode: number;
                            error: string;
                            code: string;
                            message: string;
                        };
                    };
                };
                /** @description Default Response */
                429: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": {
                            statusCode: number;
                            error: string;
                            code: string;
                            message: string;
                        };
                    };
                };
                /** @description Default Response */
                503: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": {
                            statusCode: number;
                            error: string;
                            code: string;
                            message: string;
                        };
                    };
                };
            };
        };
        put?: never;
        post?: never;
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/api/market/search": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        /** Search collections and tokens by name (typo-tolerant, ranked) */
        get: {
            parameters: {
                query: {
                    /** @description search text (typo-tolerant) */
                    text: string;
                    /** @description hits per kind */
                    limit?: number;
                };
                header?: never;
                path?: never;
                cookie?: never;
            };
            requestBody?: never;
            responses: {
                /** @description Default Response */
                200: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": {
                            data: {
                                collections: {
                                    collectionId: string;
                                    collection: string;
                                    creator: string;
                                    collectionUrl: string | null;
                                    /**
                                     * Format: uri
                                     * @description absolute URL of the 256-pixel WebP thumbnail (GET /media/{id}); set w=64|256|512|1024 and format=webp|avif|png for others; null without a URI
                                     */
                                    thumbnailUrl?: string | null;
                                    tokenStandard: string;
                                    /** @description trigram similarity 0..1 */
                                    score: number;
                                }[];
                                tokens: {
                                    tokenId: string;
                                    tokenName: string;
                                    tokenStandard: string;
                                    collection: string | null;
                                    collectionId: string;
                                    creator: string | null;
                                    tokenUri: string | null;
                                    /**
                                     * Format: uri
                                     * @description absolute URL of the 256-pixel WebP thumbnail (GET /media/{id}); set w=64|256|512|1024 and format=webp|avif|png for others; null without a URI
                                     */
                                    thumbnailUrl?: string | null;
                                    score: number;
                                }[];
                            };
                        };
                    };
                };
                /** @description Not Modified: the If-None-Match ETag still names the answer; no body */
                304: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content?: never;
                };
                /** @description Default Response */
                400: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": {
                            statusCode: number;
                            error: string;
                            code: string;
                            message: string;
                        };
                    };
                };
                /** @description Default Response */
                401: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": {
                            statusCode: number;
                            error: string;
                            code: string;
                            message: string;
                        };
                    };
                };
                /** @description Default Response */
                404: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": {
                            statusCode: number;
                            error: string;
                            code: string;
                            message: string;
                        };
                    };
                };
                /** @description Default Response */
                429: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": {
                            statusCode: number;
                            error: string;
                            code: string;
                            message: string;
                        };
                    };
                };
                /** @description Default Response */
                503: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": {
                            statusCode: number;
                            error: string;
                            code: string;
                            message: string;
                        };
                    };
                };
            };
        };
        put?: never;
        post?: never;
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/api/market/listing-cards": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        /**
         * Active listings with filters; newest first, or by popularity
         * @description byPopular=true orders by the listing's collection in the 7-day trending ranking (volume 0.5, sales 0.3, unique buyers 0.2; unranked collections last), then newest first.
         */
        get: {
            parameters: {
                query?: {
                    /** @description token or collection name (contains / similar) */
                    search?: string;
                    /** @description minimum price, smallest unit (u64 string) */
                    minPrice?: string;
                    /** @description maximum price, smallest unit (u64 string) */
                    maxPrice?: string;
                    /** @description payment coin type */
                    coinType?: string;
                    /** @description collection name */
                    collectionName?: string;
                    /** @description creator address */
                    creatorAddress?: string;
                    /** @description collection URI */
                    collectionUrl?: string;
                    /** @description sort by the collection's 7-day trending rank, then newest */
                    byPopular?: boolean;
                    /** @description page number, from 1 */
                    page?: number;
                    /** @description page size, at most 100 */
                    limit?: number;
                    /** @description opaque: nextCursor of the previous page (keyset paging; page is then only echoed) */
                    cursor?: string;
                };
                header?: never;
                path?: never;
                cookie?: never;
            };
            requestBody?: never;
            responses: {
                /** @description Default Response */
                200: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": {
                            data: {
                                listingId: string;
                                marketplace: string;
                                tokenId: string;
                                tokenName: string | null;
                                tokenStandard: string | null;
                                /** @description u64 in the smallest unit, decimal string */
                                propertyVersion: string | null;
                                creator: string | null;
                                collection: string | null;
                                collectionId: string | null;
                                tokenUri: string | null;
                                /**
                                 * Format: uri
                                 * @description absolute URL of the 256-pixel WebP thumbnail (GET /media/{id}); set w=64|256|512|1024 and format=webp|avif|png for others; null without a URI
                                 */
                                thumbnailUrl?: string | null;
                                seller: string | null;
                                /** @description u64 in the smallest unit, decimal string */
                                price: string;
                                coinType: string;
                                /** @description u64 in the smallest unit, decimal string */
                                quantity: string;
                                /** @description active, sold or cancelled */
                                status: string;
                                /**
                                 * Format: date-time
                                 * @description ISO-8601 UTC
                                 */
                                listedAt: string | null;
                                version: number | null;
                            }[];
                            pagination: {
                                page: number;
                                limit: number;
                                total: number;
                                hasMore: boolean;
                                nextCursor: string | null;
                            };
                        };
                    };
                };
                /** @description Not Modified: the If-None-Match ETag still names the answer; no body */
                304: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content?: never;
                };
                /** @description Default Response */
                400: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": {
                            statusCode: number;
                            error: string;
                            code: string;
                            message: string;
                        };
                    };
                };
                /** @description Default Response */
                401: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": {
                            statusCode: number;
                            error: string;
                            code: string;
                            message: string;
                        };
                    };
                };
                /** @description Default Response */
                404: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": {
                            statusCode: number;
                            error: string;
                            code: string;
                            message: string;
                        };
                    };
                };
                /** @description Default Response */
                429: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": {
                            statusCode: number;
                            error: string;
                            code: string;
                            message: string;
                        };
                    };
                };
                /** @description Default Response */
                503: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": {
                            statusCode: number;
                            error: string;
                            code: string;
                            message: string;
                        };
                    };
                };
            };
        };
        put?: never;
        post?: never;
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/api/market/total-listing-cards": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        /** How many listing cards match the filters (always agrees with listing-cards) */
        get: {
            parameters: {
                query?: {
                    /** @description token or collection name (contains / similar) */
                    search?: string;
                    /** @description minimum price, smallest unit (u64 string) */
                    minPrice?: string;
                    /** @description maximum price, smallest unit (u64 string) */
                    maxPrice?: string;
                    /** @description payment coin type */
                    coinType?: string;
                    /** @description collection name */
                    collectionName?: string;
                    /** @description creator address */
                    creatorAddress?: string;
                    /** @description collection URI */
                    collectionUrl?: string;
                };
                header?: never;
                path?: never;
                cookie?: never;
            };
            requestBody?: never;
            responses: {
                /** @description Default Response */
                200: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": {
                            data: {
                                total: number;
                            };
                        };
                    };
                };
                /** @description Not Modified: the If-None-Match ETag still names the answer; no body */
                304: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content?: never;
                };
                /** @description Default Response */
                400: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": {
                            statusCode: number;
                            error: string;
                            code: string;
                            message: string;
                        };
                    };
                };
                /** @description Default Response */
                401: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": {
                            statusCode: number;
                            error: string;
                            code: string;
                            message: string;
                        };
                    };
                };
                /** @description Default Response */
                404: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": {
                            statusCode: number;
                            error: string;
                            code: string;
                            message: string;
                        };
                    };
                };
                /** @description Default Response */
                429: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": {
                            statusCode: number;
                            error: string;
                            code: string;
                            message: string;
                        };
                    };
                };
                /** @description Default Response */
                503: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": {
                            statusCode: number;
                            error: string;
                            code: string;
                            message: string;
                        };
                    };
                };
            };
        };
        put?: never;
        post?: never;
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/api/market/user-activity": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        /** A wallet's market activity as seller or buyer, newest first */
        get: {
            parameters: {
                query: {
                    /** @description wallet address */
                    address: string;
                    /** @description page number, from 1 */
                    page?: number;
                    /** @description page size, at most 100 */
                    limit?: number;
                    /** @description opaque: nextCursor of the previous page (keyset paging; page is then only echoed) */
                    cursor?: string;
                };
                header?: never;
                path?: never;
                cookie?: never;
            };
            requestBody?: never;
            responses: {
                /** @description Default Response */
                200: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": {
                            data: {
                                /** @enum {string} */
                                source: "token" | "market";
                                /** @description mint, transfer, deposit, withdraw, burn… or place_listing, fill_listing… */
                                kind: string;
                                tokenId: string | null;
                                tokenStandard: string | null;
                                /** @description u64 in the smallest unit, decimal string */
                                propertyVersion: string | null;
                                collectionId: string | null;
                                from: string | null;
                                to: string | null;
                                seller: string | null;
                                buyer: string | null;
                                /** @description u64 in the smallest unit, decimal string */
                                price: string | null;
                                coinType: string | null;
                                /** @description u64 in the smallest unit, decimal string */
                                quantity: string;
                                marketplace: string | null;
                                /**
                                 * Format: date-time
                                 * @description ISO-8601 UTC
                                 */
                                timestamp: string;
                                version: number;
                                eventIndex: number;
                                /** @description wash-trade reasons of a sale (self_trade, round_trip, token_churn, seller_funded); empty when clean or not a sale */
                                flags: string[];
                            }[];
                            pagination: {
                                page: number;
                                limit: number;
                                total: number;
                                hasMore: boolean;
                                nextCursor: string | null;
                            };
                        };
                    };
                };
                /** @description Not Modified: the If-None-Match ETag still names the answer; no body */
                304: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content?: never;
                };
                /** @description Default Response */
                400: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": {
                            statusCode: number;
                            error: string;
                            code: string;
                            message: string;
                        };
                    };
                };
                /** @description Default Response */
                401: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": {
                            statusCode: number;
                            error: string;
                            code: string;
                            message: string;
                        };
                    };
                };
                /** @description Default Response */
                404: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": {
                            statusCode: number;
                            error: string;
                            code: string;
                            message: string;
                        };
                    };
                };
                /** @description Default Response */
                429: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": {
                            statusCode: number;
                            error: string;
                            code: string;
                            message: string;
                        };
                    };
                };
                /** @description Default Response */
                503: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": {
                            statusCode: number;
                            error: string;
                            code: string;
                            message: string;
                        };
                    };
                };
            };
        };
        put?: never;
        post?: never;
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/api/market/user-listings": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        /** A wallet's active listings, newest first */
        get: {
            parameters: {
                query: {
                    /** @description wallet address */
                    address: string;
                    /** @description page number, from 1 */
                    page?: number;
                    /** @description page size, at most 100 */
                    limit?: number;
                    /** @description opaque: nextCursor of the previous page (keyset paging; page is then only echoed) */
                    cursor?: string;
                };
                header?: never;
                path?: never;
                cookie?: never;
            };
            requestBody?: never;
            responses: {
                /** @description Default Response */
                200: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": {
                            data: {
                                listingId: string;
                                marketplace: string;
                                tokenId: string;
                                tokenName: string | null;
                                tokenStandard: string | null;
                                /** @description u64 in the smallest unit, decimal string */
                                propertyVersion: string | null;
                                creator: string | null;
                                collection: string | null;
                                collectionId: string | null;
                                tokenUri: string | null;
                                /**
                                 * Format: uri
                                 * @description absolute URL of the 256-pixel WebP thumbnail (GET /media/{id}); set w=64|256|512|1024 and format=webp|avif|png for others; null without a URI
                                 */
                                thumbnailUrl?: string | null;
                                seller: string | null;
                                /** @description u64 in the smallest unit, decimal string */
                                price: string;
                                coinType: string;
                                /** @description u64 in the smallest unit, decimal string */
                                quantity: string;
                                /** @description active, sold or cancelled */
                                status: string;
                                /**
                                 * Format: date-time
                                 * @description ISO-8601 UTC
                                 */
                                listedAt: string | null;
                                version: number | null;
                            }[];
                            pagination: {
                                page: number;
                                limit: number;
                                total: number;
                                hasMore: boolean;
                                nextCursor: string | null;
                            };
                        };
                    };
                };
                /** @description Not Modified: the If-None-Match ETag still names the answer; no body */
                304: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content?: never;
                };
                /** @description Default Response */
                400: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": {
                            statusCode: number;
                            error: string;
                            code: string;
                            message: string;
                        };
                    };
                };
                /** @description Default Response */
                401: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": {
                            statusCode: number;
                            error: string;
                            code: string;
                            message: string;
                        };
                    };
                };
                /** @description Default Response */
                404: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": {
                            statusCode: number;
                            error: string;
                            code: string;
                            message: string;
                        };
                    };
                };
                /** @description Default Response */
                429: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": {
                            statusCode: number;
                            error: string;
                            code: string;
                            message: string;
                        };
                    };
                };
                /** @description Default Response */
                503: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": {
                            statusCode: number;
                            error: string;
                            code: string;
                            message: string;
                        };
                    };
                };
            };
        };
        put?: never;
        post?: never;
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/api/market/user-bids": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        /** A wallet's live bids (token and collection offers), newest first */
        get: {
            parameters: {
                query: {
                    /** @description wallet address */
                    address: string;
                    /** @description page number, from 1 */
                    page?: number;
                    /** @description page size, at most 100 */
                    limit?: number;
                    /** @description opaque: nextCursor of the previous page (keyset paging; page is then only echoed) */
                    cursor?: string;
                };
                header?: never;
                path?: never;
                cookie?: never;
            };
            requestBody?: never;
            responses: {
                /** @description Default Response */
                200: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": {
                            data: {
                                /** @enum {string} */
                                kind: "token_offer" | "collection_offer";
                                offerId: string;
                                marketplace: string;
                                buyer: string;
                                /** @description u64 in the smallest unit, decimal string */
                                price: string;
                                coinType: string;
                                /** @description u64 in the smallest unit, decimal string */
                                quantity: string;
                                tokenId: string | null;
                                tokenName: string | null;
                                creator: string | null;
                                collection: string | null;
                                collectionId: string | null;
                                status: string;
                                /**
                                 * Format: date-time
                                 * @description ISO-8601 UTC
                                 */
                                expiresAt: string | null;
                                /**
                                 * Format: date-time
                                 * @description ISO-8601 UTC
                                 */
                                timestamp: string | null;
                                version: number | null;
                            }[];
                            pagination: {
                                page: number;
                                limit: number;
                                total: number;
                                hasMore: boolean;
                                nextCursor: string | null;
                            };
                        };
                    };
                };
                /** @description Not Modified: the If-None-Match ETag still names the answer; no body */
                304: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content?: never;
                };
                /** @description Default Response */
                400: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": {
                            statusCode: number;
                            error: string;
                            code: string;
                            message: string;
                        };
                    };
                };
                /** @description Default Response */
                401: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": {
                            statusCode: number;
                            error: string;
                            code: string;
                            message: string;
                        };
                    };
                };
                /** @description Default Response */
                404: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": {
                            statusCode: number;
                            error: string;
                            code: string;
                            message: string;
                        };
                    };
                };
                /** @description Default Response */
                429: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": {
                            statusCode: number;
                            error: string;
                            code: string;
                            message: string;
                        };
                    };
                };
                /** @description Default Response */
                503: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": {
                            statusCode: number;
                            error: string;
                            code: string;
                            message: string;
                        };
                    };
                };
            };
        };
        put?: never;
        post?: never;
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/api/market/user-history": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        /** A wallet's purchases (filled listings and accepted offers as buyer), newest first */
        get: {
            parameters: {
                query: {
                    /** @description wallet address */
                    address: string;
                    /** @description page number, from 1 */
                    page?: number;
                    /** @description page size, at most 100 */
                    limit?: number;
                    /** @description opaque: nextCursor of the previous page (keyset paging; page is then only echoed) */
                    cursor?: string;
                };
                header?: never;
                path?: never;
                cookie?: never;
            };
            requestBody?: never;
            responses: {
                /** @description Default Response */
                200: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": {
                            data: {
                                /** @enum {string} */
                                source: "token" | "market";
                                /** @description mint, transfer, deposit, withdraw, burn… or place_listing, fill_listing… */
                                kind: string;
                                tokenId: string | null;
                                tokenStandard: string | null;
                                /** @description u64 in the smallest unit, decimal string */
                                propertyVersion: string | null;
                                collectionId: string | null;
                                from: string | null;
                                to: string | null;
                                seller: string | null;
                                buyer: string | null;
                                /** @description u64 in the smallest unit, decimal string */
                                price: string | null;
                                coinType: string | null;
                                /** @description u64 in the smallest unit, decimal string */
                                quantity: string;
                                marketplace: string | null;
                                /**
                                 * Format: date-time
                                 * @description ISO-8601 UTC
                                 */
                                timestamp: string;
                                version: number;
                                eventIndex: number;
                                /** @description wash-trade reasons of a sale (self_trade, round_trip, token_churn, seller_funded); empty when clean or not a sale */
                                flags: string[];
                            }[];
                            pagination: {
                                page: number;
                                limit: number;
                                total: number;
                                hasMore: boolean;
                                nextCursor: string | null;
                            };
                        };
                    };
                };
                /** @description Not Modified: the If-None-Match ETag still names the answer; no body */
                304: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content?: never;
                };
                /** @description Default Response */
                400: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": {
                            statusCode: number;
                            error: string;
                            code: string;
                            message: string;
                        };
                    };
                };
                /** @description Default Response */
                401: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": {
                            statusCode: number;
                            error: string;
                            code: string;
                            message: string;
                        };
                    };
                };
                /** @description Default Response */
                404: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": {
                            statusCode: number;
                            error: string;
                            code: string;
                            message: string;
                        };
                    };
                };
                /** @description Default Response */
                429: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": {
                            statusCode: number;
                            error: string;
                            code: string;
                            message: string;
                        };
                    };
                };
                /** @description Default Response */
                503: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": {
                            statusCode: number;
                            error: string;
                            code: string;
                            message: string;
                        };
                    };
                };
            };
        };
        put?: never;
        post?: never;
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/api/user/inventory-history-data": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        /**
         * A wallet's token count and floor value over 24h, 7d, 30d or all time
         * @description Reads the worker's inventory snapshots (last snapshot of each bucket). A wallet with no snapshot yet gets one point computed now from its ownerships and live floors.
         */
        get: {
            parameters: {
                query: {
                    /** @description wallet address */
                    address: string;
                    /** @description buckets: hourly (24h), 6-hourly (7d), daily (30d), weekly (all) */
                    range?: "24h" | "7d" | "30d" | "all";
                };
                header?: never;
                path?: never;
                cookie?: never;
            };
            requestBody?: never;
            responses: {
                /** @description Default Response */
                200: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": {
                            data: {
                                address: string;
                                /** @enum {string} */
                                range: "24h" | "7d" | "30d" | "all";
                                /** @description bucket width, e.g. "1 hour" */
                                bucket: string;
                                points: {
                                    /**
                                     * Format: date-time
                                     * @description ISO-8601 UTC
                                     */
                                    timestamp: string;
                                    tokenCount: number;
                                    /** @description u64 in the smallest unit, decimal string */
                                    floorValue: string;
                                    /** @description computed now from ownerships and live floors (no snapshot yet) */
                                    live: boolean;
                                }[];
                            };
                        };
                    };
                };
                /** @description Not Modified: the If-None-Match ETag still names the answer; no body */
                304: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content?: never;
                };
                /** @description Default Response */
                400: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": {
                            statusCode: number;
                            error: string;
                            code: string;
                            message: string;
                        };
                    };
                };
                /** @description Default Response */
                401: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": {
                            statusCode: number;
                            error: string;
                            code: string;
                            message: string;
                        };
                    };
                };
                /** @description Default Response */
                404: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": {
                            statusCode: number;
                            error: string;
                            code: string;
                            message: string;
                        };
                    };
                };
                /** @description Default Response */
                429: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": {
                            statusCode: number;
                            error: string;
                            code: string;
                            message: string;
                        };
                    };
                };
                /** @description Default Response */
                503: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": {
                            statusCode: number;
                            error: string;
                            code: string;
                            message: string;
                        };
                    };
                };
            };
        };
        put?: never;
        post?: never;
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/api/lootbox": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        /** A lootbox with its status (upcoming, active, sold_out, ended) and tiers */
        get: {
            parameters: {
                query: {
                    /** @description creator address of the lootbox */
                    creator: string;
                    /** @description collection name of the lootbox */
                    collection: string;
                };
                header?: never;
                path?: never;
                cookie?: never;
            };
            requestBody?: never;
            responses: {
                /** @description Default Response */
                200: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": {
                            data: {
                                lootboxId: number;
                                creator: string;
                                collection: string;
                                collectionId: string;
                                /** @description u64 in the smallest unit, decimal string */
                                price: string;
                                coinType: string;
                                /** @description u64 in the smallest unit, decimal string */
                                maxSupply: string;
                                /** @description u64 in the smallest unit, decimal string */
                                minted: string;
                                /** @description u64 in the smallest unit, decimal string */
                                purchased: string;
                                /** @description u64 in the smallest unit, decimal string */
                                revenue: string;
                                /**
                                 * Format: date-time
                                 * @description ISO-8601 UTC
                                 */
                                mintStart: string;
                                /**
                                 * Format: date-time
                                 * @description ISO-8601 UTC
                                 */
                                mintEnd: string | null;
                                paused: boolean;
                                /** @enum {string} */
                                status: "upcoming" | "active" | "sold_out" | "ended";
                                /**
                                 * Format: date-time
                                 * @description ISO-8601 UTC
                                 */
                                createdAt: string;
                                version: number;
                                tiers: {
                                    name: string;
                                    position: number;
                                    /** @description u64 in the smallest unit, decimal string */
                                    weight: string;
                                    /** @description weight / sum of weights */
                                    probability: number;
                                    /** @description u64 in the smallest unit, decimal string */
                                    maxSupply: string;
                                    /** @description u64 in the smallest unit, decimal string */
                                    minted: string;
                                }[];
                            };
                        };
                    };
                };
                /** @description Not Modified: the If-None-Match ETag still names the answer; no body */
                304: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content?: never;
                };
                /** @description Default Response */
                400: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": {
                            statusCode: number;
                            error: string;
                            code: string;
                            message: string;
                        };
                    };
                };
                /** @description Default Response */
                401: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": {
                            statusCode: number;
                            error: string;
                            code: string;
                            message: string;
                        };
                    };
                };
                /** @description Default Response */
                404: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": {
                            statusCode: number;
                            error: string;
                            code: string;
                            message: string;
                        };
                    };
                };
                /** @description Default Response */
                429: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": {
                            statusCode: number;
                            error: string;
                            code: string;
                            message: string;
                        };
                    };
                };
                /** @description Default Response */
                503: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": {
                            statusCode: number;
                            error: string;
                            code: string;
                            message: string;
                        };
                    };
                };
            };
        };
        put?: never;
        post?: never;
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/api/lootbox-revenue": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        /** A lootbox's revenue per payment coin over 24h, 7d, 30d or all time */
        get: {
            parameters: {
                query: {
                    /** @description creator address of the lootbox */
                    creator: string;
                    /** @description collection name of the lootbox */
                    collection: string;
                    /** @description revenue window ending now */
                    timeframe: "24h" | "7d" | "30d" | "all";
                };
                header?: never;
                path?: never;
                cookie?: never;
            };
            requestBody?: never;
            responses: {
                /** @description Default Response */
                200: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": {
                            data: {
                                lootboxId: number;
                                /**
                                 * @description revenue window ending now
                                 * @enum {string}
                                 */
                                timeframe: "24h" | "7d" | "30d" | "all";
                                /**
                                 * Format: date-time
                                 * @description ISO-8601 UTC
                                 */
                                from: string | null;
                                /**
                                 * Format: date-time
                                 * @description ISO-8601 UTC
                                 */
                                to: string;
                                revenue: {
                                    coinType: string;
                                    /** @description u64 in the smallest unit, decimal string */
                                    amount: string;
                                    purchases: number;
                                    /** @description u64 in the smallest unit, decimal string */
                                    quantity: string;
                                }[];
                            };
                        };
                    };
                };
                /** @description Not Modified: the If-None-Match ETag still names the answer; no body */
                304: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content?: never;
                };
                /** @description Default Response */
                400: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": {
                            statusCode: number;
                            error: string;
                            code: string;
                            message: string;
                        };
                    };
                };
                /** @description Default Response */
                401: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": {
                            statusCode: number;
                            error: string;
                            code: string;
                            message: string;
                        };
                    };
                };
                /** @description Default Response */
                404: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": {
                            statusCode: number;
                            error: string;
                            code: string;
                            message: string;
                        };
                    };
                };
                /** @description Default Response */
                429: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": {
                            statusCode: number;
                            error: string;
                            code: string;
                            message: string;
                        };
                    };
                };
                /** @description Default Response */
                503: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": {
                            statusCode: number;
                            error: string;
                            code: string;
                            message: string;
                        };
                    };
                };
            };
        };
        put?: never;
        post?: never;
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/api/rarities-by-lootbox": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        /** A lootbox's tier table: weights, probabilities, supply and minted counts */
        get: {
            parameters: {
                query: {
                    /** @description lootbox id */
                    lootboxId: number;
                };
                header?: never;
                path?: never;
                cookie?: never;
            };
            requestBody?: never;
            responses: {
                /** @description Default Response */
                200: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": {
                            data: {
                                lootboxId: number;
                                collectionId: string;
                                /** @description u64 in the smallest unit, decimal string */
                                maxSupply: string;
                                /** @description u64 in the smallest unit, decimal string */
                                minted: string;
                                tiers: {
                                    name: string;
                                    position: number;
                                    /** @description u64 in the smallest unit, decimal string */
                                    weight: string;
                                    /** @description weight / sum of weights */
                                    probability: number;
                                    /** @description u64 in the smallest unit, decimal string */
                                    maxSupply: string;
                                    /** @description u64 in the smallest unit, decimal string */
                                    minted: string;
                                }[];
                            };
                        };
                    };
                };
                /** @description Not Modified: the If-None-Match ETag still names the answer; no body */
                304: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content?: never;
                };
                /** @description Default Response */
                400: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": {
                            statusCode: number;
                            error: string;
                            code: string;
                            message: string;
                        };
                    };
                };
                /** @description Default Response */
                401: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": {
                            statusCode: number;
                            error: string;
                            code: string;
                            message: string;
                        };
                    };
                };
                /** @description Default Response */
                404: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": {
                            statusCode: number;
                            error: string;
                            code: string;
                            message: string;
                        };
                    };
                };
                /** @description Default Response */
                429: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": {
                            statusCode: number;
                            error: string;
                            code: string;
                            message: string;
                        };
                    };
                };
                /** @description Default Response */
                503: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": {
                            statusCode: number;
                            error: string;
                            code: string;
                            message: string;
                        };
                    };
                };
            };
        };
        put?: never;
        post?: never;
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/api/rarities-by-collection": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        /** OpenRarity rank and score of a collection's tokens, rarest first */
        get: {
            parameters: {
                query: {
                    /** @description creator address of the collection */
                    creator: string;
                    /** @description collection name */
                    collection: string;
                    /** @description page number, from 1 */
                    page?: number;
                    /** @description page size, at most 100 */
                    limit?: number;
                    /** @description opaque: nextCursor of the previous page (keyset paging; page is then only echoed) */
                    cursor?: string;
                };
                header?: never;
                path?: never;
                cookie?: never;
            };
            requestBody?: never;
            responses: {
                /** @description Default Response */
                200: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": {
                            data: {
                                tokenId: string;
                                tokenName: string | null;
                                collectionId: string;
                                /** @description 1 = rarest; equal scores share a rank */
                                rank: number;
                                /** @description OpenRarity score */
                                score: number;
                                traitCount: number;
                                /**
                                 * Format: date-time
                                 * @description ISO-8601 UTC
                                 */
                                computedAt: string;
                            }[];
                            pagination: {
                                page: number;
                                limit: number;
                                total: number;
                                hasMore: boolean;
                                nextCursor: string | null;
                            };
                        };
                    };
                };
                /** @description Not Modified: the If-None-Match ETag still names the answer; no body */
                304: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content?: never;
                };
                /** @description Default Response */
                400: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": {
                            statusCode: number;
                            error: string;
                            code: string;
                            message: string;
                        };
                    };
                };
                /** @description Default Response */
                401: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": {
                            statusCode: number;
                            error: string;
                            code: string;
                            message: string;
                        };
                    };
                };
                /** @description Default Response */
                404: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": {
                            statusCode: number;
                            error: string;
                            code: string;
                            message: string;
                        };
                    };
                };
                /** @description Default Response */
                429: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": {
                            statusCode: number;
                            error: string;
                            code: string;
                            message: string;
                        };
                    };
                };
                /** @description Default Response */
                503: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": {
                            statusCode: number;
                            error: string;
                            code: string;
                            message: string;
                        };
                    };
                };
            };
        };
        put?: never;
        post?: never;
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/api/rankings/trending-collections": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        /** Trending (7 days): volume 0.5, sales 0.3, unique buyers 0.2 (percentile ranks) */
        get: {
            parameters: {
                query?: {
                    /** @description page number, from 1 */
                    page?: number;
                    /** @description opaque: nextCursor of the previous page (keyset paging; page is then only echoed) */
                    cursor?: string;
                    /** @description 1, 10 or 100 */
                    limit?: 1 | 10 | 100;
                    /** @description rank with wash-flagged sales counted (by default they are left out) */
                    includeFlagged?: boolean;
                };
                header?: never;
                path?: never;
                cookie?: never;
            };
            requestBody?: never;
            responses: {
                /** @description Default Response */
                200: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": {
                            data: {
                                rank: number;
                                collectionId: string | null;
                                collection: string | null;
                                creator: string | null;
                                collectionUrl: string | null;
                                /**
                                 * Format: uri
                                 * @description absolute URL of the 256-pixel WebP thumbnail (GET /media/{id}); set w=64|256|512|1024 and format=webp|avif|png for others; null without a URI
                                 */
                                thumbnailUrl?: string | null;
                                lootboxId: number | null;
                                score: number;
                                metrics: {
                                    [key: string]: string | number | (never | null);
                                };
                                /**
                                 * Format: date-time
                                 * @description ISO-8601 UTC
                                 */
                                computedAt: string;
                            }[];
                            pagination: {
                                page: number;
                                limit: number;
                                total: number;
                                hasMore: boolean;
                                nextCursor: string | null;
                            };
                        };
                    };
                };
                /** @description Not Modified: the If-None-Match ETag still names the answer; no body */
                304: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content?: never;
                };
                /** @description Default Response */
                400: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": {
                            statusCode: number;
                            error: string;
                            code: string;
                            message: string;
                        };
                    };
                };
                /** @description Default Response */
                401: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": {
                            statusCode: number;
                            error: string;
                            code: string;
                            message: string;
                        };
                    };
                };
                /** @description Default Response */
                404: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": {
                            statusCode: number;
                            error: string;
                            code: string;
                            message: string;
                        };
                    };
                };
                /** @description Default Response */
                429: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": {
                            statusCode: number;
                            error: string;
                            code: string;
                            message: string;
                        };
                    };
                };
                /** @description Default Response */
                503: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": {
                            statusCode: number;
                            error: string;
                            code: string;
                            message: string;
                        };
                    };
                };
            };
        };
        put?: never;
        post?: never;
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/api/rankings/daily-picks": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        /** Daily picks (24 hours): volume 0.5, floor change 0.3, social engagement 0.2 */
        get: {
            parameters: {
                query?: {
                    /** @description page number, from 1 */
                    page?: number;
                    /** @description opaque: nextCursor of the previous page (keyset paging; page is then only echoed) */
                    cursor?: string;
                    /** @description 1, 10 or 100 */
                    limit?: 1 | 10 | 100;
                    /** @description rank with wash-flagged sales counted (by default they are left out) */
                    includeFlagged?: boolean;
                };
                header?: never;
                path?: never;
                cookie?: never;
            };
            requestBody?: never;
            responses: {
                /** @description Default Response */
                200: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": {
                            data: {
                                rank: number;
                                collectionId: string | null;
                                collection: string | null;
                                creator: string | null;
                                collectionUrl: string | null;
                                /**
                                 * Format: uri
                                 * @description absolute URL of the 256-pixel WebP thumbnail (GET /media/{id}); set w=64|256|512|1024 and format=webp|avif|png for others; null without a URI
                                 */
                                thumbnailUrl?: string | null;
                                lootboxId: number | null;
                                score: number;
                                metrics: {
                                    [key: string]: string | number | (never | null);
                                };
                                /**
                                 * Format: date-time
                                 * @description ISO-8601 UTC
                                 */
                                computedAt: string;
                            }[];
                            pagination: {
                                page: number;
                                limit: number;
                                total: number;
                                hasMore: boolean;
                                nextCursor: string | null;
                            };
                        };
                    };
                };
                /** @description Not Modified: the If-None-Match ETag still names the answer; no body */
                304: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content?: never;
                };
                /** @description Default Response */
                400: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": {
                            statusCode: number;
                            error: string;
                            code: string;
                            message: string;
                        };
                    };
                };
                /** @description Default Response */
                401: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": {
                            statusCode: number;
                            error: string;
                            code: string;
                            message: string;
                        };
                    };
                };
                /** @description Default Response */
                404: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": {
                            statusCode: number;
                            error: string;
                            code: string;
                            message: string;
                        };
                    };
                };
                /** @description Default Response */
                429: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": {
                            statusCode: number;
                            error: string;
                            code: string;
                            message: string;
                        };
                    };
                };
                /** @description Default Response */
                503: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": {
                            statusCode: number;
                            error: string;
                            code: string;
                            message: string;
                        };
                    };
                };
            };
        };
        put?: never;
        post?: never;
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/api/rankings/top-collections": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        /** Top (30 days): volume 0.5, floor change 0.25, holder count 0.25 */
        get: {
            parameters: {
                query?: {
                    /** @description page number, from 1 */
                    page?: number;
                    /** @description opaque: nextCursor of the previous page (keyset paging; page is then only echoed) */
                    cursor?: string;
                    /** @description 1, 10 or 100 */
                    limit?: 1 | 10 | 100;
                    /** @description rank with wash-flagged sales counted (by default they are left out) */
                    includeFlagged?: boolean;
                };
                header?: never;
                path?: never;
                cookie?: never;
            };
            requestBody?: never;
            responses: {
                /** @description Default Response */
                200: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": {
                            data: {
                                rank: number;
                                collectionId: string | null;
                                collection: string | null;
                                creator: string | null;
                                collectionUrl: string | null;
                                /**
                                 * Format: uri
                                 * @description absolute URL of the 256-pixel WebP thumbnail (GET /media/{id}); set w=64|256|512|1024 and format=webp|avif|png for others; null without a URI
                                 */
                                thumbnailUrl?: string | null;
                                lootboxId: number | null;
                                score: number;
                                metrics: {
                                    [key: string]: string | number | (never | null);
                                };
                                /**
                                 * Format: date-time
                                 * @description ISO-8601 UTC
                                 */
                                computedAt: string;
                            }[];
                            pagination: {
                                page: number;
                                limit: number;
                                total: number;
                                hasMore: boolean;
                                nextCursor: string | null;
                            };
                        };
                    };
                };
                /** @description Not Modified: the If-None-Match ETag still names the answer; no body */
                304: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content?: never;
                };
                /** @description Default Response */
                400: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": {
                            statusCode: number;
                            error: string;
                            code: string;
                            message: string;
                        };
                    };
                };
                /** @description Default Response */
                401: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": {
                            statusCode: number;
                            error: string;
                            code: string;
                            message: string;
                        };
                    };
                };
                /** @description Default Response */
                404: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": {
                            statusCode: number;
                            error: string;
                            code: string;
                            message: string;
                        };
                    };
                };
                /** @description Default Response */
                429: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": {
                            statusCode: number;
                            error: string;
                            code: string;
                            message: string;
                        };
                    };
                };
                /** @description Default Response */
                503: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": {
                            statusCode: number;
                            error: string;
                            code: string;
                            message: string;
                        };
                    };
                };
            };
        };
        put?: never;
        post?: never;
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/api/rankings/recent-added": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        /** Recently added lootboxes, newest first */
        get: {
            parameters: {
                query?: {
                    /** @description page number, from 1 */
                    page?: number;
                    /** @description opaque: nextCursor of the previous page (keyset paging; page is then only echoed) */
                    cursor?: string;
                    /** @description 1, 10 or 100 */
                    limit?: 1 | 10 | 100;
                };
                header?: never;
                path?: never;
                cookie?: never;
            };
            requestBody?: never;
            responses: {
                /** @description Default Response */
                200: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": {
                            data: {
                                rank: number;
                                lootboxId: number;
                                creator: string;
                                collection: string;
                                collectionId: string;
                                /** @description u64 in the smallest unit, decimal string */
                                price: string;
                                coinType: string;
                                /** @description u64 in the smallest unit, decimal string */
                                maxSupply: string;
                                /** @description u64 in the smallest unit, decimal string */
                                minted: string;
                                /** @description u64 in the smallest unit, decimal string */
                                purchased: string;
                                /** @description u64 in the smallest unit, decimal string */
                                revenue: string;
                                /**
                                 * Format: date-time
                                 * @description ISO-8601 UTC
                                 */
                                mintStart: string;
                                /**
                                 * Format: date-time
                                 * @description ISO-8601 UTC
                                 */
                                mintEnd: string | null;
                                paused: boolean;
                                /** @enum {string} */
                                status: "upcoming" | "active" | "sold_out" | "ended";
                                /**
                                 * Format: date-time
                                 * @description ISO-8601 UTC
                                 */
                                createdAt: string;
                                version: number;
                            }[];
                            pagination: {
                                page: number;
                                limit: number;
                                total: number;
                                hasMore: boolean;
                                nextCursor: string | null;
                            };
                        };
                    };
                };
                /** @description Not Modified: the If-None-Match ETag still names the answer; no body */
                304: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content?: never;
                };
                /** @description Default Response */
                400: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": {
                            statusCode: number;
                            error: string;
                            code: string;
                            message: string;
                        };
                    };
                };
                /** @description Default Response */
                401: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": {
                            statusCode: number;
                            error: string;
                            code: string;
                            message: string;
                        };
                    };
                };
                /** @description Default Response */
                404: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": {
                            statusCode: number;
                            error: string;
                            code: string;
                            message: string;
                        };
                    };
                };
                /** @description Default Response */
                429: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": {
                            statusCode: number;
                            error: string;
                            code: string;
                            message: string;
                        };
                    };
                };
                /** @description Default Response */
                503: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": {
                            statusCode: number;
                            error: string;
                            code: string;
                            message: string;
                        };
                    };
                };
            };
        };
        put?: never;
        post?: never;
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/api/rankings/by-upcoming": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        /** Upcoming lootboxes (before mint start), soonest first */
        get: {
            parameters: {
                query?: {
                    /** @description page number, from 1 */
                    page?: number;
                    /** @description opaque: nextCursor of the previous page (keyset paging; page is then only echoed) */
                    cursor?: string;
                    /** @description 1, 10 or 100 */
                    limit?: 1 | 10 | 100;
                };
                header?: never;
                path?: never;
                cookie?: never;
            };
            requestBody?: never;
            responses: {
                /** @description Default Response */
                200: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": {
                            data: {
                                rank: number;
                                lootboxId: number;
                                creator: string;
                                collection: string;
                                collectionId: string;
                                /** @description u64 in the smallest unit, decimal string */
                                price: string;
                                coinType: string;
                                /** @description u64 in the smallest unit, decimal string */
                                maxSupply: string;
                                /** @description u64 in the smallest unit, decimal string */
                                minted: string;
                                /** @description u64 in the smallest unit, decimal string */
                                purchased: string;
                                /** @description u64 in the smallest unit, decimal string */
                                revenue: string;
                                /**
                                 * Format: date-time
                                 * @description ISO-8601 UTC
                                 */
                                mintStart: string;
                                /**
                                 * Format: date-time
                                 * @description ISO-8601 UTC
                                 */
                                mintEnd: string | null;
                                paused: boolean;
                                /** @enum {string} */
                                status: "upcoming" | "active" | "sold_out" | "ended";
                                /**
                                 * Format: date-time
                                 * @description ISO-8601 UTC
                                 */
                                createdAt: string;
                                version: number;
                            }[];
                            pagination: {
                                page: number;
                                limit: number;
                                total: number;
                                hasMore: boolean;
                                nextCursor: string | null;
                            };
                        };
                    };
                };
                /** @description Not Modified: the If-None-Match ETag still names the answer; no body */
                304: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content?: never;
                };
                /** @description Default Response */
                400: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": {
                            statusCode: number;
                            error: string;
                            code: string;
                            message: string;
                        };
                    };
                };
                /** @description Default Response */
                401: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": {
                            statusCode: number;
                            error: string;
                            code: string;
                            message: string;
                        };
                    };
                };
                /** @description Default Response */
                404: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": {
                            statusCode: number;
                            error: string;
                            code: string;
                            message: string;
                        };
                    };
                };
                /** @description Default Response */
                429: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": {
                            statusCode: number;
                            error: string;
                            code: string;
                            message: string;
                        };
                    };
                };
                /** @description Default Response */
                503: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": {
                            statusCode: number;
                            error: string;
                            code: string;
                            message: string;
                        };
                    };
                };
            };
        };
        put?: never;
        post?: never;
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/api/process-collection-uri-cache": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        /** Resolve and cache a collection's image URI (pending until the worker has fetched it) */
        get: {
            parameters: {
                query: {
                    /** @description name of the collection to process */
                    collectionName: string;
                    /** @description creator address (needed when several creators use the name) */
                    creatorAddress?: string;
                };
                header?: never;
                path?: never;
                cookie?: never;
            };
            requestBody?: never;
            responses: {
                /** @description Default Response */
                200: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": {
                            data: {
                                collectionId: string;
                                collection: string;
                                creator: string;
                                metadataUri: string | null;
                                imageUrl: string | null;
                                contentType: string | null;
                                /** @enum {string} */
                                status: "ok" | "error" | "pending";
                                error: string | null;
                                attempts: number;
                                /**
                                 * Format: date-time
                                 * @description ISO-8601 UTC
                                 */
                                fetchedAt: string | null;
                                /**
                                 * Format: date-time
                                 * @description ISO-8601 UTC
                                 */
                                expiresAt: string | null;
                            };
                        };
                    };
                };
                /** @description Default Response */
                400: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": {
                            statusCode: number;
                            error: string;
                            code: string;
                            message: string;
                        };
                    };
                };
                /** @description Default Response */
                401: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": {
                            statusCode: number;
                            error: string;
                            code: string;
                            message: string;
                        };
                    };
                };
                /** @description Default Response */
                404: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": {
                            statusCode: number;
                            error: string;
                            code: string;
                            message: string;
                        };
                    };
                };
                /** @description Default Response */
                429: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": {
                            statusCode: number;
                            error: string;
                            code: string;
                            message: string;
                        };
                    };
                };
                /** @description Default Response */
                503: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": {
                            statusCode: number;
                            error: string;
                            code: string;
                            message: string;
                        };
                    };
                };
            };
        };
        put?: never;
        /** Resolve and cache a collection's image URI (pending until the worker has fetched it) */
        post: {
            parameters: {
                query?: never;
                header?: never;
                path?: never;
                cookie?: never;
            };
            requestBody: {
                content: {
                    "application/json": {
                        /** @description name of the collection to process */
                        collectionName: string;
                        /** @description creator address (needed when several creators use the name) */
                        creatorAddress?: string;
                    };
                };
            };
            responses: {
                /** @description Default Response */
                200: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": {
                            data: {
                                collectionId: string;
                                collection: string;
                                creator: string;
                                metadataUri: string | null;
                                imageUrl: string | null;
                                contentType: string | null;
                                /** @enum {string} */
                                status: "ok" | "error" | "pending";
                                error: string | null;
                                attempts: number;
                                /**
                                 * Format: date-time
                                 * @description ISO-8601 UTC
                                 */
                                fetchedAt: string | null;
                                /**
                                 * Format: date-time
                                 * @description ISO-8601 UTC
                                 */
                                expiresAt: string | null;
                            };
                        };
                    };
                };
                /** @description Default Response */
                400: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": {
                            statusCode: number;
                            error: string;
                            code: string;
                            message: string;
                        };
                    };
                };
                /** @description Default Response */
                401: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": {
                            statusCode: number;
                            error: string;
                            code: string;
                            message: string;
                        };
                    };
                };
                /** @description Default Response */
                404: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": {
                            statusCode: number;
                            error: string;
                            code: string;
                            message: string;
                        };
                    };
                };
                /** @description Default Response */
                415: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": {
                            statusCode: number;
                            error: string;
                            code: string;
                            message: string;
                        };
                    };
                };
                /** @description Default Response */
                429: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": {
                            statusCode: number;
                            error: string;
                            code: string;
                            message: string;
                        };
                    };
                };
                /** @description Default Response */
                503: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": {
                            statusCode: number;
                            error: string;
                            code: string;
                            message: string;
                        };
                    };
                };
            };
        };
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/api/validate-metadata": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        get?: never;
        put?: never;
        /** Validate token or collection metadata before minting: errors (with JSON paths) and warnings */
        post: {
            parameters: {
                query?: {
                    /** @description which metadata format the body follows */
                    kind?: "token" | "collection";
                };
                header?: never;
                path?: never;
                cookie?: never;
            };
            /** @description a token or collection metadata document */
            requestBody: {
                content: {
                    "application/json": {
                        [key: string]: unknown;
                    };
                };
            };
            responses: {
                /** @description Default Response */
                200: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": {
                            data: {
                                valid: boolean;
                                errors: {
                                    path: string;
                                    message: string;
                                }[];
                                warnings: {
                                    path: string;
                                    message: string;
                                }[];
                            };
                        };
                    };
                };
                /** @description Default Response */
                400: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": {
                            statusCode: number;
                            error: string;
                            code: string;
                            message: string;
                        };
                    };
                };
                /** @description Default Response */
                401: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": {
                            statusCode: number;
                            error: string;
                            code: string;
                            message: string;
                        };
                    };
                };
                /** @description Default Response */
                404: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": {
                            statusCode: number;
                            error: string;
                            code: string;
                            message: string;
                        };
                    };
                };
                /** @description Default Response */
                415: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": {
                            statusCode: number;
                            error: string;
                            code: string;
                            message: string;
                        };
                    };
                };
                /** @description Default Response */
                429: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": {
                            statusCode: number;
                            error: string;
                            code: string;
                            message: string;
                        };
                    };
                };
                /** @description Default Response */
                503: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": {
                            statusCode: number;
                            error: string;
                            code: string;
                            message: string;
                        };
                    };
                };
            };
        };
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/api/refresh-metadata": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        get?: never;
        put?: never;
        /** Re-fetch a token's or a whole collection's off-chain metadata document */
        post: {
            parameters: {
                query?: never;
                header?: never;
                path?: never;
                cookie?: never;
            };
            /** @description either `tokenId` or `collectionId` */
            requestBody: {
                content: {
                    "application/json": {
                        /** @description token id: refresh this token's document */
                        tokenId: string;
                    } | {
                        /** @description collection id: refresh the collection's document and every token's */
                        collectionId: string;
                    };
                };
            };
            responses: {
                /** @description Default Response */
                202: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": {
                            data: {
                                /** @enum {string} */
                                scope: "token" | "collection";
                                collectionId: string;
                                tokenId: string | null;
                                /** @description stored documents made due now (ones never fetched are due already) */
                                marked: number;
                                /** @description the collection's crawl was queued now; false: the worker's sweep picks it up (within a minute) */
                                queued: boolean;
                            };
                        };
                    };
                };
                /** @description Default Response */
                400: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": {
                            statusCode: number;
                            error: string;
                            code: string;
                            message: string;
                        };
                    };
                };
                /** @description Default Response */
                401: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": {
                            statusCode: number;
                            error: string;
                            code: string;
                            message: string;
                        };
                    };
                };
                /** @description Default Response */
                404: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": {
                            statusCode: number;
                            error: string;
                            code: string;
                            message: string;
                        };
                    };
                };
                /** @description Default Response */
                415: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": {
                            statusCode: number;
                            error: string;
                            code: string;
                            message: string;
                        };
                    };
                };
                /** @description Default Response */
                429: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": {
                            statusCode: number;
                            error: string;
                            code: string;
                            message: string;
                        };
                    };
                };
                /** @description Default Response */
                503: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": {
                            statusCode: number;
                            error: string;
                            code: string;
                            message: string;
                        };
                    };
                };
            };
        };
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/api/export/{dataset}": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        /** Bulk export of a dataset as NDJSON or CSV (streamed, resumable, one snapshot) */
        get: {
            parameters: {
                query?: {
                    /** @description ndjson (one JSON object per line) or csv (header row of camelCase field names) */
                    format?: "ndjson" | "csv";
                    /** @description collection id (or creator + collection) */
                    collectionId?: string;
                    /** @description creator address of the collection (with collection) */
                    creator?: string;
                    /** @description collection name (with creator) */
                    collection?: string;
                    /** @description rows of this wallet (seller / buyer / sender / receiver / owner / creator) */
                    wallet?: string;
                    /** @description first chain version, inclusive */
                    fromVersion?: number;
                    /** @description last chain version, inclusive */
                    toVersion?: number;
                    /** @description resume: the trailer's `next`, or the cursor of the last row received */
                    after?: string;
                    /** @description at most this many rows */
                    limit?: number;
                };
                header?: never;
                path: {
                    /** @description what to export */
                    dataset: "sales" | "activities" | "listings" | "offers" | "tokens" | "ownerships" | "collections";
                };
                cookie?: never;
            };
            requestBody?: never;
            responses: {
                /** @description one row per line (NDJSON: a JSON object; CSV: a header line, then records), then the trailer line {"$export":{"rows","complete","next"}} (CSV: the same JSON after a #); gzipped when Accept-Encoding allows it */
                200: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/x-ndjson": string;
                        "text/csv": string;
                    };
                };
                /** @description Default Response */
                400: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": {
                            statusCode: number;
                            error: string;
                            code: string;
                            message: string;
                        };
                    };
                };
                /** @description Default Response */
                401: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": {
                            statusCode: number;
                            error: string;
                            code: string;
                            message: string;
                        };
                    };
                };
                /** @description Default Response */
                404: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": {
                            statusCode: number;
                            error: string;
                            code: string;
                            message: string;
                        };
                    };
                };
                /** @description Default Response */
                429: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": {
                            statusCode: number;
                            error: string;
                            code: string;
                            message: string;
                        };
                    };
                };
                /** @description Default Response */
                503: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": {
                            statusCode: number;
                            error: string;
                            code: string;
                            message: string;
                        };
                    };
                };
            };
        };
        put?: never;
        post?: never;
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/api/collection-stats": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        /**
         * Windowed collection statistics: volume, sales, floor and its change, offers, holders, supply
         * @description Wash-flagged sales are left out of volume, sales, average, median and traders unless includeFlagged=true (flaggedSales / flaggedVolume always say how many there were).
         */
        get: {
            parameters: {
                query?: {
                    /** @description collection id (v2 collection address or v1 collection id) */
                    collectionId?: string;
                    /** @description creator address of the collection (with collection) */
                    creator?: string;
                    /** @description collection name (with creator) */
                    collection?: string;
                    /** @description the lootbox of the collection */
                    lootboxId?: number;
                    /** @description trailing window ending now: 1h, 24h, 7d, 30d or all */
                    window?: "1h" | "24h" | "7d" | "30d" | "all";
                    /** @description count wash-flagged sales too (raw figures); by default they are left out */
                    includeFlagged?: boolean;
                };
                header?: never;
                path?: never;
                cookie?: never;
            };
            requestBody?: never;
            responses: {
                /** @description Default Response */
                200: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        /**
                         * @example {
                         *       "data": {
                         *         "collectionId": "0x599a6c8c04f51fb2a3e0f3b7f1cc7e3b84d13c3bbf04e6b4ec84c5f1a5a2d91b",
                         *         "collection": "Shadow Dragons",
                         *         "creator": "0xce43d6a19a0d2bd0a1d02a7a0c1b0d1e6c9a3e4f5b6c7d8e9f00112233d0c8",
                         *         "window": "7d",
                         *         "windowStart": "2025-12-25T00:00:00.000Z",
                         *         "windowEnd": "2026-01-01T00:00:00.000Z",
                         *         "includeFlagged": false,
                         *         "volume": "3065800000",
                         *         "sales": 3,
                         *         "averageSale": "1021933333",
                         *         "medianSale": "970100000",
                         *         "uniqueBuyers": 3,
                         *         "uniqueSellers": 3,
                         *         "flaggedSales": 0,
                         *         "flaggedVolume": "0",
                         *         "floor": "1164500000",
                         *         "floorAtWindowStart": "948000000",
                         *         "floorChange": 0.2284,
                         *         "bestCollectionOffer": "905000000",
                         *         "listedCount": 13,
                         *         "listedShare": 0.1566,
                         *         "holders": 34,
                         *         "top10HoldersShare": 0.5542,
                         *         "supply": "83",
                         *         "minted": "84",
                         *         "burned": "1"
                         *       },
                         *       "freshness": {
                         *         "indexedVersion": 599,
                         *         "indexedAt": "2026-01-01T00:00:00.000Z"
                         *       }
                         *     }
                         */
                        "application/json": {
                            data: {
                                /** @description AIP-40 long form: 0x + 64 lowercase hex */
                                collectionId: string;
                                collection: string;
                                /** @description AIP-40 long form: 0x + 64 lowercase hex */
                                creator: string;
                                window: string;
                                /**
                                 * Format: date-time
                                 * @description ISO-8601 UTC
                                 */
                                windowStart: string | null;
                                /**
                                 * Format: date-time
                                 * @description ISO-8601 UTC
                                 */
                                windowEnd: string;
                                includeFlagged: boolean;
                                /** @description u64 in the smallest unit, decimal string */
                                volume: string;
                                sales: number;
                                /** @description u64 in the smallest unit, decimal string */
                                averageSale: string | null;
                                /** @description u64 in the smallest unit, decimal string */
                                medianSale: string | null;
                                uniqueBuyers: number;
                                uniqueSellers: number;
                                flaggedSales: number;
                                /** @description u64 in the smallest unit, decimal string */
                                flaggedVolume: string;
                                /** @description u64 in the smallest unit, decimal string */
                                floor: string | null;
                                /** @description u64 in the smallest unit, decimal string */
                                floorAtWindowStart: string | null;
                                floorChange: number | null;
                                /** @description u64 in the smallest unit, decimal string */
                                bestCollectionOffer: string | null;
                                listedCount: number;
                                listedShare: number | null;
                                holders: number;
                                top10HoldersShare: number | null;
                                /** @description u64 in the smallest unit, decimal string */
                                supply: string;
                                /** @description u64 in the smallest unit, decimal string */
                                minted: string;
                                /** @description u64 in the smallest unit, decimal string */
                                burned: string;
                            };
                            freshness: {
                                /** @description highest chain version the answer reflects */
                                indexedVersion: number | null;
                                /**
                                 * Format: date-time
                                 * @description ISO-8601 UTC
                                 */
                                indexedAt: string | null;
                            };
                        };
                    };
                };
                /** @description Not Modified: the If-None-Match ETag still names the answer; no body */
                304: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content?: never;
                };
                /** @description Default Response */
                400: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": {
                            statusCode: number;
                            error: string;
                            code: string;
                            message: string;
                        };
                    };
                };
                /** @description Default Response */
                401: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": {
                            statusCode: number;
                            error: string;
                            code: string;
                            message: string;
                        };
                    };
                };
                /** @description Default Response */
                404: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": {
                            statusCode: number;
                            error: string;
                            code: string;
                            message: string;
                        };
                    };
                };
                /** @description Default Response */
                429: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": {
                            statusCode: number;
                            error: string;
                            code: string;
                            message: string;
                        };
                    };
                };
                /** @description Default Response */
                503: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": {
                            statusCode: number;
                            error: string;
                            code: string;
                            message: string;
                        };
                    };
                };
            };
        };
        put?: never;
        post?: never;
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/api/collection-history": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        /** Chart data per hour or day: sale OHLC, volume, sales and floor at the bucket end, gap-free */
        get: {
            parameters: {
                query?: {
                    /** @description collection id (v2 collection address or v1 collection id) */
                    collectionId?: string;
                    /** @description creator address of the collection (with collection) */
                    creator?: string;
                    /** @description collection name (with creator) */
                    collection?: string;
                    /** @description the lootbox of the collection */
                    lootboxId?: number;
                    /** @description bucket size */
                    interval?: "1h" | "1d";
                    /** @description first bucket holds this time (default: 30 buckets back) */
                    from?: string;
                    /** @description last bucket holds this time (default: now) */
                    to?: string;
                    /** @description count wash-flagged sales too (raw figures); by default they are left out */
                    includeFlagged?: boolean;
                };
                header?: never;
                path?: never;
                cookie?: never;
            };
            requestBody?: never;
            responses: {
                /** @description Default Response */
                200: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        /**
                         * @example {
                         *       "data": {
                         *         "collectionId": "0x599a6c8c04f51fb2a3e0f3b7f1cc7e3b84d13c3bbf04e6b4ec84c5f1a5a2d91b",
                         *         "interval": "1d",
                         *         "buckets": [
                         *           {
                         *             "start": "2025-12-30T00:00:00.000Z",
                         *             "open": "970100000",
                         *             "high": "970100000",
                         *             "low": "970100000",
                         *             "close": "970100000",
                         *             "volume": "970100000",
                         *             "sales": 1,
                         *             "floor": null
                         *           },
                         *           {
                         *             "start": "2025-12-31T00:00:00.000Z",
                         *             "open": "970100000",
                         *             "high": "970100000",
                         *             "low": "970100000",
                         *             "close": "970100000",
                         *             "volume": "0",
                         *             "sales": 0,
                         *             "floor": null
                         *           },
                         *           {
                         *             "start": "2026-01-01T00:00:00.000Z",
                         *             "open": "970100000",
                         *             "high": "970100000",
                         *             "low": "970100000",
                         *             "close": "970100000",
                         *             "volume": "0",
                         *             "sales": 0,
                         *             "floor": "1164500000"
                         *           }
                         *         ]
                         *       },
                         *       "freshness": {
                         *         "indexedVersion": 599,
                         *         "indexedAt": "2026-01-01T00:00:00.000Z"
                         *       }
                         *     }
                         */
                        "application/json": {
                            data: {
                                /** @description AIP-40 long form: 0x + 64 lowercase hex */
                                collectionId: string;
                                interval: string;
                                buckets: {
                                    /**
                                     * Format: date-time
                                     * @description ISO-8601 UTC
                                     */
                                    start: string;
                                    /** @description u64 in the smallest unit, decimal string */
                                    open: string | null;
                                    /** @description u64 in the smallest unit, decimal string */
                                    high: string | null;
                                    /** @description u64 in the smallest unit, decimal string */
                                    low: string | null;
                                    /** @description u64 in the smallest unit, decimal string */
                                    close: string | null;
                                    /** @description u64 in the smallest unit, decimal string */
                                    volume: string;
                                    sales: number;
                                    /** @description u64 in the smallest unit, decimal string */
                                    floor: string | null;
                                }[];
                            };
                            freshness: {
                                /** @description highest chain version the answer reflects */
                                indexedVersion: number | null;
                                /**
                                 * Format: date-time
                                 * @description ISO-8601 UTC
                                 */
                                indexedAt: string | null;
                            };
                        };
                    };
                };
                /** @description Not Modified: the If-None-Match ETag still names the answer; no body */
                304: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content?: never;
                };
                /** @description Default Response */
                400: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": {
                            statusCode: number;
                            error: string;
                            code: string;
                            message: string;
                        };
                    };
                };
                /** @description Default Response */
                401: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": {
                            statusCode: number;
                            error: string;
                            code: string;
                            message: string;
                        };
                    };
                };
                /** @description Default Response */
                404: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": {
                            statusCode: number;
                            error: string;
                            code: string;
                            message: string;
                        };
                    };
                };
                /** @description Default Response */
                429: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": {
                            statusCode: number;
                            error: string;
                            code: string;
                            message: string;
                        };
                    };
                };
                /** @description Default Response */
                503: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": {
                            statusCode: number;
                            error: string;
                            code: string;
                            message: string;
                        };
                    };
                };
            };
        };
        put?: never;
        post?: never;
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/api/collection-trait-floors": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        /** Every trait value with its token count, share, live floor and last sale */
        get: {
            parameters: {
                query?: {
                    /** @description collection id (v2 collection address or v1 collection id) */
                    collectionId?: string;
                    /** @description creator address of the collection (with collection) */
                    creator?: string;
                    /** @description collection name (with creator) */
                    collection?: string;
                    /** @description the lootbox of the collection */
                    lootboxId?: number;
                    /** @description count wash-flagged sales too (raw figures); by default they are left out */
                    includeFlagged?: boolean;
                };
                header?: never;
                path?: never;
                cookie?: never;
            };
            requestBody?: never;
            responses: {
                /** @description Default Response */
                200: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        /**
                         * @example {
                         *       "data": {
                         *         "collectionId": "0x599a6c8c04f51fb2a3e0f3b7f1cc7e3b84d13c3bbf04e6b4ec84c5f1a5a2d91b",
                         *         "traits": [
                         *           {
                         *             "traitType": "Clothes",
                         *             "value": "Armor",
                         *             "count": 10,
                         *             "share": 0.1205,
                         *             "floor": "1535000000",
                         *             "lastSalePrice": "875200000",
                         *             "lastSaleAt": "2025-11-29T07:12:00.000Z"
                         *           },
                         *           {
                         *             "traitType": "Clothes",
                         *             "value": "Jersey",
                         *             "count": 2,
                         *             "share": 0.0241,
                         *             "floor": null,
                         *             "lastSalePrice": null,
                         *             "lastSaleAt": null
                         *           }
                         *         ]
                         *       },
                         *       "freshness": {
                         *         "indexedVersion": 599,
                         *         "indexedAt": "2026-01-01T00:00:00.000Z"
                         *       }
                         *     }
                         */
                        "application/json": {
                            data: {
                                /** @description AIP-40 long form: 0x + 64 lowercase hex */
                                collectionId: string;
                                traits: {
                                    traitType: string;
                                    value: string;
                                    count: number;
                                    share: number | null;
                                    /** @description u64 in the smallest unit, decimal string */
                                    floor: string | null;
                                    /** @description u64 in the smallest unit, decimal string */
                                    lastSalePrice: string | null;
                                    /**
                                     * Format: date-time
                                     * @description ISO-8601 UTC
                                     */
                                    lastSaleAt: string | null;
                                }[];
                            };
                            freshness: {
                                /** @description highest chain version the answer reflects */
                                indexedVersion: number | null;
                                /**
                                 * Format: date-time
                                 * @description ISO-8601 UTC
                                 */
                                indexedAt: string | null;
                            };
                        };
                    };
                };
                /** @description Not Modified: the If-None-Match ETag still names the answer; no body */
                304: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content?: never;
                };
                /** @description Default Response */
                400: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": {
                            statusCode: number;
                            error: string;
                            code: string;
                            message: string;
                        };
                    };
                };
                /** @description Default Response */
                401: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": {
                            statusCode: number;
                            error: string;
                            code: string;
                            message: string;
                        };
                    };
                };
                /** @description Default Response */
                404: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": {
                            statusCode: number;
                            error: string;
                            code: string;
                            message: string;
                        };
                    };
                };
                /** @description Default Response */
                429: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": {
                            statusCode: number;
                            error: string;
                            code: string;
                            message: string;
                        };
                    };
                };
                /** @description Default Response */
                503: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": {
                            statusCode: number;
                            error: string;
                            code: string;
                            message: string;
                        };
                    };
                };
            };
        };
        put?: never;
        post?: never;
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/api/collection-top-traders": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        /** The collection's top buyers and sellers by volume in a window */
        get: {
            parameters: {
                query?: {
                    /** @description collection id (v2 collection address or v1 collection id) */
                    collectionId?: string;
                    /** @description creator address of the collection (with collection) */
                    creator?: string;
                    /** @description collection name (with creator) */
                    collection?: string;
                    /** @description the lootbox of the collection */
                    lootboxId?: number;
                    /** @description trailing window ending now: 1h, 24h, 7d, 30d or all */
                    window?: "1h" | "24h" | "7d" | "30d" | "all";
                    /** @description traders per side, at most 100 */
                    limit?: number;
                    /** @description count wash-flagged sales too (raw figures); by default they are left out */
                    includeFlagged?: boolean;
                };
                header?: never;
                path?: never;
                cookie?: never;
            };
            requestBody?: never;
            responses: {
                /** @description Default Response */
                200: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        /**
                         * @example {
                         *       "data": {
                         *         "collectionId": "0x599a6c8c04f51fb2a3e0f3b7f1cc7e3b84d13c3bbf04e6b4ec84c5f1a5a2d91b",
                         *         "window": "30d",
                         *         "buyers": [
                         *           {
                         *             "address": "0xbc6701f3b2c4d5e6f708192a3b4c5d6e7f8091a2b3c4d5e6f708192a3b4cacd8",
                         *             "volume": "3099500000",
                         *             "trades": 3
                         *           }
                         *         ],
                         *         "sellers": [
                         *           {
                         *             "address": "0xb99601f3b2c4d5e6f708192a3b4c5d6e7f8091a2b3c4d5e6f708192a3b4c71b1",
                         *             "volume": "5154600000",
                         *             "trades": 4
                         *           }
                         *         ]
                         *       },
                         *       "freshness": {
                         *         "indexedVersion": 599,
                         *         "indexedAt": "2026-01-01T00:00:00.000Z"
                         *       }
                         *     }
                         */
                        "application/json": {
                            data: {
                                /** @description AIP-40 long form: 0x + 64 lowercase hex */
                                collectionId: string;
                                window: string;
                                buyers: {
                                    /** @description AIP-40 long form: 0x + 64 lowercase hex */
                                    address: string;
                                    /** @description u64 in the smallest unit, decimal string */
                                    volume: string;
                                    trades: number;
                                }[];
                                sellers: {
                                    /** @description AIP-40 long form: 0x + 64 lowercase hex */
                                    address: string;
                                    /** @description u64 in the smallest unit, decimal string */
                                    volume: string;
                                    trades: number;
                                }[];
                            };
                            freshness: {
                                /** @description highest chain version the answer reflects */
                                indexedVersion: number | null;
                                /**
                                 * Format: date-time
                                 * @description ISO-8601 UTC
                                 */
                                indexedAt: string | null;
                            };
                        };
                    };
                };
                /** @description Not Modified: the If-None-Match ETag still names the answer; no body */
                304: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content?: never;
                };
                /** @description Default Response */
                400: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": {
                            statusCode: number;
                            error: string;
                            code: string;
                            message: string;
                        };
                    };
                };
                /** @description Default Response */
                401: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": {
                            statusCode: number;
                            error: string;
                            code: string;
                            message: string;
                        };
                    };
                };
                /** @description Default Response */
                404: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": {
                            statusCode: number;
                            error: string;
                            code: string;
                            message: string;
                        };
                    };
                };
                /** @description Default Response */
                429: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": {
                            statusCode: number;
                            error: string;
                            code: string;
                            message: string;
                        };
                    };
                };
                /** @description Default Response */
                503: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": {
                            statusCode: number;
                            error: string;
                            code: string;
                            message: string;
                        };
                    };
                };
            };
        };
        put?: never;
        post?: never;
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/api/webhooks": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        /** This key's webhook endpoints, oldest first */
        get: {
            parameters: {
                query?: {
                    /** @description page number, from 1 */
                    page?: number;
                    /** @description page size, at most 100 */
                    limit?: number;
                    /** @description opaque: nextCursor of the previous page (keyset paging; page is then only echoed) */
                    cursor?: string;
                };
                header?: never;
                path?: never;
                cookie?: never;
            };
            requestBody?: never;
            responses: {
                /** @description Default Response */
                200: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": {
                            data: {
                                endpointId: string;
                                url: string;
                                filter: {
                                    [key: string]: unknown;
                                };
                                /** @enum {string} */
                                status: "active" | "paused";
                                failures: number;
                                /** @description id of the last event delivered (or the start point) */
                                deliveredThrough: string;
                                createdAt: string;
                                pausedAt: string | null;
                            }[];
                            pagination: {
                                page: number;
                                limit: number;
                                total: number;
                                hasMore: boolean;
                                nextCursor: string | null;
                            };
                        };
                    };
                };
                /** @description Default Response */
                400: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": {
                            statusCode: number;
                            error: string;
                            code: string;
                            message: string;
                        };
                    };
                };
                /** @description Default Response */
                401: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": {
                            statusCode: number;
                            error: string;
                            code: string;
                            message: string;
                        };
                    };
                };
                /** @description Default Response */
                404: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": {
                            statusCode: number;
                            error: string;
                            code: string;
                            message: string;
                        };
                    };
                };
                /** @description Default Response */
                429: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": {
                            statusCode: number;
                            error: string;
                            code: string;
                            message: string;
                        };
                    };
                };
                /** @description Default Response */
                503: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": {
                            statusCode: number;
                            error: string;
                            code: string;
                            message: string;
                        };
                    };
                };
            };
        };
        put?: never;
        /** Register a webhook endpoint with feed filters; events after `since` (default: now) are delivered */
        post: {
            parameters: {
                query?: never;
                header?: never;
                path?: never;
                cookie?: never;
            };
            requestBody: {
                content: {
                    "application/json": {
                        /**
                         * Format: uri
                         * @description http(s) target
                         */
                        url: string;
                        /** @description resume after this event id (`<version>:<eventIndex>`), or 'earliest' for all history; Last-Event-ID wins when both are given; default: live events only */
                        since?: string;
                        /** @description collection ids (comma-separated) */
                        collectionId?: string;
                        /** @description collection creator, with collection */
                        creator?: string;
                        /** @description collection name, with creator */
                        collection?: string;
                        /** @description token ids (comma-separated) */
                        tokenId?: string;
                        /** @description wallet addresses matched as buyer, seller, from or to (comma-separated) */
                        wallet?: string;
                        /** @description event kinds (comma-separated) among listing_placed, listing_cancelled, listing_sold, token_offer_placed, token_offer_cancelled, token_offer_filled, collection_offer_placed, collection_offer_cancelled, collection_offer_filled, mint, transfer, burn, lootbox_purchased, lootbox_opened, floor_changed, ranking_changed */
                        kinds?: string;
                        /** @description marketplace names (comma-separated) */
                        marketplace?: string;
                    };
                };
            };
            responses: {
                /** @description Default Response */
                201: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": {
                            data: {
                                endpointId: string;
                                url: string;
                                filter: {
                                    [key: string]: unknown;
                                };
                                /** @enum {string} */
                                status: "active" | "paused";
                                failures: number;
                                /** @description id of the last event delivered (or the start point) */
                                deliveredThrough: string;
                                createdAt: string;
                                pausedAt: string | null;
                                /** @description HMAC-SHA256 signing secret; shown only here */
                                secret: string;
                            };
                        };
                    };
                };
                /** @description Default Response */
                400: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": {
                            statusCode: number;
                            error: string;
                            code: string;
                            message: string;
                        };
                    };
                };
                /** @description Default Response */
                401: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": {
                            statusCode: number;
                            error: string;
                            code: string;
                            message: string;
                        };
                    };
                };
                /** @description Default Response */
                404: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": {
                            statusCode: number;
                            error: string;
                            code: string;
                            message: string;
                        };
                    };
                };
                /** @description Default Response */
                429: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": {
                            statusCode: number;
                            error: string;
                            code: string;
                            message: string;
                        };
                    };
                };
                /** @description Default Response */
                503: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": {
                            statusCode: number;
                            error: string;
                            code: string;
                            message: string;
                        };
                    };
                };
            };
        };
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/api/webhooks/{endpointId}/deliveries": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        /** Delivery log of an endpoint, newest first */
        get: {
            parameters: {
                query?: {
                    /** @description page number, from 1 */
                    page?: number;
                    /** @description page size, at most 100 */
                    limit?: number;
                    /** @description opaque: nextCursor of the previous page (keyset paging; page is then only echoed) */
                    cursor?: string;
                };
                header?: never;
                path: {
                    endpointId: string;
                };
                cookie?: never;
            };
            requestBody?: never;
            responses: {
                /** @description Default Response */
                200: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": {
                            data: {
                                eventId: string;
                                attemptedAt: string;
                                statusCode: number | null;
                                ok: boolean;
                                error: string | null;
                            }[];
                            pagination: {
                                page: number;
                                limit: number;
                                total: number;
                                hasMore: boolean;
                                nextCursor: string | null;
                            };
                        };
                    };
                };
                /** @description Default Response */
                400: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": {
                            statusCode: number;
                            error: string;
                            code: string;
                            message: string;
                        };
                    };
                };
                /** @description Default Response */
                401: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": {
                            statusCode: number;
                            error: string;
                            code: string;
                            message: string;
                        };
                    };
                };
                /** @description Default Response */
                404: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": {
                            statusCode: number;
                            error: string;
                            code: string;
                            message: string;
                        };
                    };
                };
                /** @description Default Response */
                429: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": {
                            statusCode: number;
                            error: string;
                            code: string;
                            message: string;
                        };
                    };
                };
                /** @description Default Response */
                503: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": {
                            statusCode: number;
                            error: string;
                            code: string;
                            message: string;
                        };
                    };
                };
            };
        };
        put?: never;
        post?: never;
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/api/webhooks/{endpointId}/pause": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        get?: never;
        put?: never;
        /** Pause deliveries (the backlog is kept) */
        post: {
            parameters: {
                query?: never;
                header?: never;
                path: {
                    endpointId: string;
                };
                cookie?: never;
            };
            requestBody?: never;
            responses: {
                /** @description Default Response */
                200: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": {
                            data: {
                                endpointId: string;
                                url: string;
                                filter: {
                                    [key: string]: unknown;
                                };
                                /** @enum {string} */
                                status: "active" | "paused";
                                failures: number;
                                /** @description id of the last event delivered (or the start point) */
                                deliveredThrough: string;
                                createdAt: string;
                                pausedAt: string | null;
                            };
                        };
                    };
                };
                /** @description Default Response */
                400: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": {
                            statusCode: number;
                            error: string;
                            code: string;
                            message: string;
                        };
                    };
                };
                /** @description Default Response */
                401: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": {
                            statusCode: number;
                            error: string;
                            code: string;
                            message: string;
                        };
                    };
                };
                /** @description Default Response */
                404: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": {
                            statusCode: number;
                            error: string;
                            code: string;
                            message: string;
                        };
                    };
                };
                /** @description Default Response */
                429: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": {
                            statusCode: number;
                            error: string;
                            code: string;
                            message: string;
                        };
                    };
                };
                /** @description Default Response */
                503: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": {
                            statusCode: number;
                            error: string;
                            code: string;
                            message: string;
                        };
                    };
                };
            };
        };
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/api/webhooks/{endpointId}/resume": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        get?: never;
        put?: never;
        /** Resume deliveries from where they stopped */
        post: {
            parameters: {
                query?: never;
                header?: never;
                path: {
                    endpointId: string;
                };
                cookie?: never;
            };
            requestBody?: never;
            responses: {
                /** @description Default Response */
                200: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": {
                            data: {
                                endpointId: string;
                                url: string;
                                filter: {
                                    [key: string]: unknown;
                                };
                                /** @enum {string} */
                                status: "active" | "paused";
                                failures: number;
                                /** @description id of the last event delivered (or the start point) */
                                deliveredThrough: string;
                                createdAt: string;
                                pausedAt: string | null;
                            };
                        };
                    };
                };
                /** @description Default Response */
                400: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": {
                            statusCode: number;
                            error: string;
                            code: string;
                            message: string;
                        };
                    };
                };
                /** @description Default Response */
                401: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": {
                            statusCode: number;
                            error: string;
                            code: string;
                            message: string;
                        };
                    };
                };
                /** @description Default Response */
                404: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": {
                            statusCode: number;
                            error: string;
                            code: string;
                            message: string;
                        };
                    };
                };
                /** @description Default Response */
                429: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": {
                            statusCode: number;
                            error: string;
                            code: string;
                            message: string;
                        };
                    };
                };
                /** @description Default Response */
                503: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": {
                            statusCode: number;
                            error: string;
                            code: string;
                            message: string;
                        };
                    };
                };
            };
        };
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/api/webhooks/{endpointId}": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        get?: never;
        put?: never;
        post?: never;
        /** Delete an endpoint and its delivery log */
        delete: {
            parameters: {
                query?: never;
                header?: never;
                path: {
                    endpointId: string;
                };
                cookie?: never;
            };
            requestBody?: never;
            responses: {
                /** @description Default Response */
                204: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content?: never;
                };
                /** @description Default Response */
                400: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": {
                            statusCode: number;
                            error: string;
                            code: string;
                            message: string;
                        };
                    };
                };
                /** @description Default Response */
                401: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": {
                            statusCode: number;
                            error: string;
                            code: string;
                            message: string;
                        };
                    };
                };
                /** @description Default Response */
                404: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": {
                            statusCode: number;
                            error: string;
                            code: string;
                            message: string;
                        };
                    };
                };
                /** @description Default Response */
                429: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": {
                            statusCode: number;
                            error: string;
                            code: string;
                            message: string;
                        };
                    };
                };
                /** @description Default Response */
                503: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": {
                            statusCode: number;
                            error: string;
                            code: string;
                            message: string;
                        };
                    };
                };
            };
        };
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/api/events/stream": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        /** Live feed (Server-Sent Events): market, token, lootbox, floor and ranking events in chain order, resumable with Last-Event-ID or ?since= */
        get: {
            parameters: {
                query?: {
                    /** @description the API key, for browsers' EventSource which cannot send headers */
                    apiKey?: string;
                    /** @description resume after this event id (`<version>:<eventIndex>`), or 'earliest' for all history; Last-Event-ID wins when both are given; default: live events only */
                    since?: string;
                    /** @description collection ids (comma-separated) */
                    collectionId?: string;
                    /** @description collection creator, with collection */
                    creator?: string;
                    /** @description collection name, with creator */
                    collection?: string;
                    /** @description token ids (comma-separated) */
                    tokenId?: string;
                    /** @description wallet addresses matched as buyer, seller, from or to (comma-separated) */
                    wallet?: string;
                    /** @description event kinds (comma-separated) among listing_placed, listing_cancelled, listing_sold, token_offer_placed, token_offer_cancelled, token_offer_filled, collection_offer_placed, collection_offer_cancelled, collection_offer_filled, mint, transfer, burn, lootbox_purchased, lootbox_opened, floor_changed, ranking_changed */
                    kinds?: string;
                    /** @description marketplace names (comma-separated) */
                    marketplace?: string;
                };
                header?: never;
                path?: never;
                cookie?: never;
            };
            requestBody?: never;
            responses: {
                /** @description a stream of `id: <event id>` + `data: <event JSON>` blocks */
                200: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "text/event-stream": {
                            /** @description `<version>:<eventIndex>`: unique, in chain order; the resume point */
                            id: string;
                            /** @enum {string} */
                            kind: "listing_placed" | "listing_cancelled" | "listing_sold" | "token_offer_placed" | "token_offer_cancelled" | "token_offer_filled" | "collection_offer_placed" | "collection_offer_cancelled" | "collection_offer_filled" | "mint" | "transfer" | "burn" | "lootbox_purchased" | "lootbox_opened" | "floor_changed" | "ranking_changed";
                            version: number;
                            eventIndex: number;
                            /** @description block timestamp (ISO 8601) */
                            timestamp: string;
                            collectionId: string | null;
                            tokenId: string | null;
                            tokenStandard: string | null;
                            propertyVersion: string | null;
                            seller: string | null;
                            buyer: string | null;
                            from: string | null;
                            to: string | null;
                            /** @description smallest unit; floor_changed: the new floor (null: none listed) */
                            price: string | null;
                            coinType: string | null;
                            quantity: string;
                            marketplace: string | null;
                            listingId: string | null;
                            offerId: string | null;
                            lootboxId: number | null;
                            tier: string | null;
                            /** @description ranking_changed: a collection entered, left or moved within the top `top` */
                            ranking: {
                                /** @description trending, daily_picks or top (the rankings routes) */
                                name: string;
                                /** @description the ranking's trailing window: 24h, 7d or 30d */
                                window: string;
                                /** @description position after the run (1 = first); null: no longer ranked */
                                rank: number | null;
                                /** @description position before the run; null: was not ranked */
                                previousRank: number | null;
                                score: number | null;
                                /** @description rank or previousRank (or both) is at most this */
                                top: number;
                                /**
                                 * Format: date-time
                                 * @description ISO-8601 UTC
                                 */
                                computedAt: string;
                            } | null;
                        };
                    };
                };
                /** @description Default Response */
                400: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "text/event-stream": {
                            statusCode: number;
                            error: string;
                            code: string;
                            message: string;
                        };
                    };
                };
                /** @description Default Response */
                401: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "text/event-stream": {
                            statusCode: number;
                            error: string;
                            code: string;
                            message: string;
                        };
                    };
                };
                /** @description Default Response */
                404: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "text/event-stream": {
                            statusCode: number;
                            error: string;
                            code: string;
                            message: string;
                        };
                    };
                };
                /** @description Default Response */
                429: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "text/event-stream": {
                            statusCode: number;
                            error: string;
                            code: string;
                            message: string;
                        };
                    };
                };
                /** @description Default Response */
                503: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "text/event-stream": {
                            statusCode: number;
                            error: string;
                            code: string;
                            message: string;
                        };
                    };
                };
            };
        };
        put?: never;
        post?: never;
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/api/events/ws": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        /** Live feed over WebSocket: the same events (one JSON message each), filters and resume (?since=) as the SSE stream */
        get: {
            parameters: {
                query?: {
                    /** @description the API key, for browsers' EventSource which cannot send headers */
                    apiKey?: string;
                    /** @description resume after this event id (`<version>:<eventIndex>`), or 'earliest' for all history; Last-Event-ID wins when both are given; default: live events only */
                    since?: string;
                    /** @description collection ids (comma-separated) */
                    collectionId?: string;
                    /** @description collection creator, with collection */
                    creator?: string;
                    /** @description collection name, with creator */
                    collection?: string;
                    /** @description token ids (comma-separated) */
                    tokenId?: string;
                    /** @description wallet addresses matched as buyer, seller, from or to (comma-separated) */
                    wallet?: string;
                    /** @description event kinds (comma-separated) among listing_placed, listing_cancelled, listing_sold, token_offer_placed, token_offer_cancelled, token_offer_filled, collection_offer_placed, collection_offer_cancelled, collection_offer_filled, mint, transfer, burn, lootbox_purchased, lootbox_opened, floor_changed, ranking_changed */
                    kinds?: string;
                    /** @description marketplace names (comma-separated) */
                    marketplace?: string;
                };
                header?: never;
                path?: never;
                cookie?: never;
            };
            requestBody?: never;
            responses: {
                /** @description Switching Protocols (send Upgrade: websocket): then one WebSocket text message per event, this JSON object; the server closes with 1001 when the stream ends */
                101: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": {
                            /** @description `<version>:<eventIndex>`: unique, in chain order; the resume point */
                            id: string;
                            /** @enum {string} */
                            kind: "listing_placed" | "listing_cancelled" | "listing_sold" | "token_offer_placed" | "token_offer_cancelled" | "token_offer_filled" | "collection_offer_placed" | "collection_offer_cancelled" | "collection_offer_filled" | "mint" | "transfer" | "burn" | "lootbox_purchased" | "lootbox_opened" | "floor_changed" | "ranking_changed";
                            version: number;
                            eventIndex: number;
                            /** @description block timestamp (ISO 8601) */
                            timestamp: string;
                            collectionId: string | null;
                            tokenId: string | null;
                            tokenStandard: string | null;
                            propertyVersion: string | null;
                            seller: string | null;
                            buyer: string | null;
                            from: string | null;
                            to: string | null;
                            /** @description smallest unit; floor_changed: the new floor (null: none listed) */
                            price: string | null;
                            coinType: string | null;
                            quantity: string;
                            marketplace: string | null;
                            listingId: string | null;
                            offerId: string | null;
                            lootboxId: number | null;
                            tier: string | null;
                            /** @description ranking_changed: a collection entered, left or moved within the top `top` */
                            ranking: {
                                /** @description trending, daily_picks or top (the rankings routes) */
                                name: string;
                                /** @description the ranking's trailing window: 24h, 7d or 30d */
                                window: string;
                                /** @description position after the run (1 = first); null: no longer ranked */
                                rank: number | null;
                                /** @description position before the run; null: was not ranked */
                                previousRank: number | null;
                                score: number | null;
                                /** @description rank or previousRank (or both) is at most this */
                                top: number;
                                /**
                                 * Format: date-time
                                 * @description ISO-8601 UTC
                                 */
                                computedAt: string;
                            } | null;
                        };
                    };
                };
                /** @description Default Response */
                400: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": {
                            statusCode: number;
                            error: string;
                            code: string;
                            message: string;
                        };
                    };
                };
                /** @description Default Response */
                401: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": {
                            statusCode: number;
                            error: string;
                            code: string;
                            message: string;
                        };
                    };
                };
                /** @description Default Response */
                404: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": {
                            statusCode: number;
                            error: string;
                            code: string;
                            message: string;
                        };
                    };
                };
                /** @description Default Response */
                429: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": {
                            statusCode: number;
                            error: string;
                            code: string;
                            message: string;
                        };
                    };
                };
                /** @description Default Response */
                503: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": {
                            statusCode: number;
                            error: string;
                            code: string;
                            message: string;
                        };
                    };
                };
            };
        };
        put?: never;
        post?: never;
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
}
export type webhooks = Record<string, never>;
export interface components {
    schemas: never;
    responses: never;
    parameters: never;
    requestBodies: never;
    headers: never;
    pathItems: never;
}
export type $defs = Record<string, never>;
export type operations = Record<string, never>;
