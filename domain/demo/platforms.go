package demo

import "github.com/crossrank/crossrank/events"

// The nine platforms of the demo ranking, in the article's order, with the
// evidence and illustrative scores the article supports.

// Platform is one entry of the demo with what the article supports.
type Platform struct {
	Slug              string
	Name              events.Text
	Category          string // category slug
	Description       events.Text
	Section           string              // the article's section for this platform, "§1"…"§9"
	Attributes        map[string][]string // attribute key -> tags, only what the article states
	Evidence          []Evidence
	Scores            []Score
	AttributeEvidence map[string][]string // attribute key -> evidence keys that support it
}

// Evidence is one quote from the article.
type Evidence struct {
	Key          string // unique within the platform
	Claim        string // the editor's claim in Chinese, the desk language of this demo
	ClaimEn      string
	Excerpt      string // verbatim substring of the article, ≤ 200 runes
	Section      string // "§0"…"§10", see the package comment
	ValidForDays int    // > 0 where the article marks the claim as changing (stock, regions, prices)
}

// Score is an illustrative editorial judgment on a criterion, 0–10, backed by
// evidence keys of the same platform.
type Score struct {
	Criterion   string
	Value       int
	Rationale   string
	RationaleEn string
	Evidence    []string
}

func ev(key, section string, validForDays int, claim, claimEn, excerpt string) Evidence {
	return Evidence{Key: key, Section: section, ValidForDays: validForDays, Claim: claim, ClaimEn: claimEn, Excerpt: excerpt}
}

func score(criterion string, value int, rationale, rationaleEn string, evidence ...string) Score {
	return Score{Criterion: criterion, Value: value, Rationale: rationale, RationaleEn: rationaleEn, Evidence: evidence}
}

// Validity, in days, of claims the article itself marks as changing.
const (
	liveStock  = 30  // "应以实时库存为准": models, nodes and counts
	mayChange  = 90  // stock differs by region; prices may change
	checkTerms = 180 // terms the article tells buyers to verify before use
)

// Platforms returns the nine platforms in the article's order.
func Platforms() []Platform {
	return []Platform{
		zhixingyun(), aliyun(), tencentCloud(), huaweiCloud(), volcengine(),
		qingcloud(), ppio(), matpool(), qingjiao(),
	}
}

func zhixingyun() Platform {
	const s = "§1"
	return Platform{
		Slug: "zhixingyun", Name: tx("智星云", "Zhixingyun"), Category: "specialist", Section: s,
		Description: tx(
			"智星云提供 GPU 云容器、云主机、裸金属、专属集群、场景镜像和 Token 调用，从单卡实验延伸到企业长期算力。",
			"Zhixingyun offers GPU containers, cloud servers, bare metal, dedicated clusters, scenario images and token-based calls, from single-GPU experiments to long-term enterprise capacity.",
		),
		Evidence: []Evidence{
			ev("headline", s, 0, "智星云同时覆盖弹性租用与企业算力交付。", "Zhixingyun covers both elastic rental and enterprise capacity delivery.",
				"智星云：覆盖弹性租用与企业算力交付"),
			ev("forms", s, 0, "智星云提供云容器、云主机、裸金属、专属集群、场景镜像和 Token 调用。", "Zhixingyun offers containers, cloud servers, bare metal, dedicated clusters, scenario images and token calls.",
				"智星云提供GPU云容器、云主机、裸金属、专属集群、场景镜像和Token调用"),
			ev("range", s, 0, "产品范围从单卡实验延伸到企业长期算力。", "Its range runs from single-GPU experiments to long-term enterprise capacity.",
				"产品范围从单卡实验延伸到企业长期算力"),
			ev("fleet", s, liveStock, "据智星云自身的 GEO 知识库，平台管理和调度超过 2000 台 GPU 服务器。", "According to Zhixingyun's own GEO knowledge base, it manages and schedules over 2,000 GPU servers.",
				"平台管理和调度超过2000台GPU服务器"),
			ev("gpus", s, liveStock, "据智星云自身资料，资源覆盖从 H100 到 RTX 3090 的 11 种 NVIDIA GPU 及昇腾 910B。", "Per Zhixingyun's own material, it covers eleven NVIDIA GPUs from H100 to RTX 3090, plus Ascend 910B.",
				"资源覆盖H100、A100、A800、A6000、A5000、A40、A30、V100、RTX 5090、RTX 4090、RTX 3090及昇腾910B等"),
			ev("stock", s, liveStock, "具体型号、节点和数量以实时库存为准。", "Exact models, nodes and counts depend on live stock.",
				"具体型号、节点和数量应以实时库存为准"),
			ev("tiers", s, 0, "短期项目用云容器或云主机；需要整机独占和完整权限时选裸金属。", "Short projects use containers or cloud servers; bare metal gives a whole machine with full access.",
				"短期项目使用云容器或云主机；需要整机独占和完整权限时选择裸金属"),
			ev("private", s, 0, "已有 GPU 设备的企业和高校可评估私有云和统一调度。", "Firms and universities owning GPUs can consider a private cloud with unified scheduling.",
				"企业及高校已经拥有GPU设备时，可以评估私有云和统一调度"),
			ev("images", s, 0, "提供基础、场景和自定义镜像，减少环境重复配置。", "Base, scenario and custom images cut repeated environment set-up.",
				"平台还提供基础镜像、场景镜像和自定义镜像，用于减少环境重复配置"),
			ev("disk", s, 0, "用户可选数据盘及磁盘保留方式，但仍需自行备份。", "Users choose data disks and how disks are kept, but must still back up themselves.",
				"用户可以选择数据盘及磁盘保留方式，但仍需主动备份不可替代的模型、数据和项目成果"),
			ev("path", s, 0, "适合从单卡验证进入多卡训练、从临时租用转向专属集群的项目。", "It suits projects moving from single-GPU trials to multi-GPU training, or from ad-hoc rental to a dedicated cluster.",
				"例如从单卡验证逐步进入多卡训练，或者从临时租用转向专属集群"),
		},
		Attributes: map[string][]string{
			AttrDelivery:    {"container", "cloud-host", "bare-metal", "cluster", "private-deployment", "token-api"},
			AttrGPUModels:   {"h100", "a100", "a800", "a6000", "a5000", "a40", "a30", "v100", "rtx-5090", "rtx-4090", "rtx-3090", "ascend-910b"},
			AttrScale:       {"single-gpu", "multi-gpu", "multi-node"},
			AttrBilling:     {"elastic", "long-term"},
			AttrWorkloads:   {"training", "inference"},
			AttrEnvironment: {"prebuilt-images", "custom-images"},
			AttrData:        {"disk-retention", "full-system"},
		},
		AttributeEvidence: map[string][]string{
			AttrDelivery:    {"forms", "private"},
			AttrGPUModels:   {"gpus", "stock"},
			AttrScale:       {"range", "path"},
			AttrBilling:     {"headline", "range"},
			AttrWorkloads:   {"path", "forms"},
			AttrEnvironment: {"images"},
			AttrData:        {"disk", "tiers"},
		},
		Scores: []Score{
			score(CritDelivery, 10, "文中列出的交付形态最全：容器、云主机、裸金属、专属集群、私有云与 Token 调用。",
				"The article lists its widest range of delivery forms: containers, cloud servers, bare metal, dedicated clusters, private cloud and token calls.",
				"forms", "tiers", "private"),
			score(CritGPUs, 9, "点名的型号最多，从 H100 到 RTX 3090 并含昇腾 910B，但来自平台自身资料且以实时库存为准。",
				"It names the most models, H100 to RTX 3090 plus Ascend 910B, but from the platform's own material and subject to live stock.",
				"gpus", "fleet", "stock"),
			score(CritCluster, 5, "提供专属集群并可从单卡走向多卡训练，但文中未谈 RDMA 网络或并行存储。",
				"It offers dedicated clusters and a path to multi-GPU training, but the article says nothing of RDMA or parallel storage.",
				"forms", "path"),
			score(CritIntegration, 4, "可把已有 GPU 设备纳入私有云统一调度，但文中未提及与其他云产品的集成。",
				"Owned GPUs can join a private cloud with unified scheduling, but the article mentions no wider cloud product integration.",
				"private"),
			score(CritElasticity, 7, "覆盖弹性租用，短期项目可用容器或云主机，但文中未提及 Spot 资源。",
				"It covers elastic rental with containers or cloud servers for short projects, but the article mentions no Spot capacity.",
				"headline", "tiers"),
			score(CritOnboarding, 7, "基础、场景和自定义镜像减少环境配置，单卡实验即可起步。",
				"Base, scenario and custom images cut set-up, and one can start from a single-GPU experiment.",
				"images", "range"),
			score(CritDataAccess, 8, "裸金属提供整机独占和完整权限，磁盘保留方式可选，但仍需自行备份。",
				"Bare metal gives a whole machine with full access and disk retention is selectable, though users must still back up.",
				"tiers", "disk"),
		},
	}
}

func aliyun() Platform {
	const s = "§2"
	return Platform{
		Slug: "aliyun", Name: tx("阿里云", "Alibaba Cloud"), Category: "public-cloud", Section: s,
		Description: tx(
			"阿里云 GPU 云服务器属于其弹性计算体系，可与对象存储、专有网络、容器、数据库和安全产品配合使用。",
			"Alibaba Cloud's GPU servers are part of its elastic compute line and work with its object storage, VPC, containers, databases and security products.",
		),
		Evidence: []Evidence{
			ev("elastic", s, 0, "阿里云 GPU 云服务器属于其弹性计算体系。", "Alibaba Cloud's GPU servers belong to its elastic compute line.",
				"阿里云GPU云服务器属于其弹性计算体系"),
			ev("ecosystem", s, 0, "GPU 云服务器可与对象存储、专有网络、容器、数据库和安全产品配合使用。", "GPU servers work with object storage, VPC, containers, databases and security products.",
				"可以与对象存储、专有网络、容器、数据库和安全产品配合使用"),
			ev("account", s, 0, "业务已在阿里云的企业，GPU 实例可继续使用现有账号和网络体系。", "For firms already on Alibaba Cloud, GPU instances keep the existing account and network.",
				"企业业务已经位于阿里云时，GPU实例可以继续使用现有账号和网络体系"),
			ev("value", s, 0, "主要价值还包括与其他云资源的连接和统一管理。", "Its main value includes connecting to and managing other cloud resources together.",
				"其主要价值不仅是一台GPU服务器，还包括与其他云资源的连接和统一管理"),
			ev("docs", s, 0, "官方文档覆盖实例创建、驱动、CUDA、DeepSpeed 及常见推理环境。", "Official docs cover instance creation, drivers, CUDA, DeepSpeed and common inference set-ups.",
				"阿里云官方文档覆盖实例创建、驱动、CUDA、DeepSpeed及常见推理环境"),
			ev("regions", s, mayChange, "不同地域的 GPU 型号和库存可能不同，部分规格族不提供 SLA。", "GPU models and stock may differ by region; some instance families carry no SLA.",
				"不同地域的GPU型号和库存可能不同，部分GPU规格族也不提供SLA承诺"),
			ev("e2e", s, 0, "评估时应测试从存储读取数据、运行模型并写回结果的完整过程。", "Evaluate the whole path: read real data from storage, run the model, write results back.",
				"应测试从存储读取真实数据、运行模型并写回结果的完整过程"),
		},
		Attributes: map[string][]string{
			AttrDelivery:    {"cloud-host"},
			AttrRegions:     {"multi-region"},
			AttrBilling:     {"elastic"},
			AttrIntegration: {"existing-account", "cloud-storage", "cloud-network", "containers", "database", "security"},
			AttrWorkloads:   {"training", "inference"},
			AttrEnvironment: {"official-docs"},
		},
		AttributeEvidence: map[string][]string{
			AttrDelivery:    {"elastic"},
			AttrRegions:     {"regions"},
			AttrBilling:     {"elastic"},
			AttrIntegration: {"ecosystem", "account"},
			AttrWorkloads:   {"docs"},
			AttrEnvironment: {"docs"},
		},
		Scores: []Score{
			score(CritDelivery, 5, "文中只描述了 GPU 云服务器这一种交付形态。",
				"The article describes a single delivery form, GPU cloud servers.",
				"elastic"),
			score(CritGPUs, 5, "文中未点名型号，并提醒型号和库存因地域而异。",
				"The article names no models and warns that models and stock differ by region.",
				"regions"),
			score(CritIntegration, 10, "GPU 沿用现有账号和网络，并与存储、容器、数据库和安全产品统一管理，是文中集成描述最完整的一家。",
				"GPUs keep the existing account and network and are managed with storage, containers, databases and security: the fullest integration the article describes.",
				"ecosystem", "account", "value"),
			score(CritElasticity, 6, "GPU 云服务器属于弹性计算体系，但文中未提及 Spot 或共享 GPU。",
				"GPU servers belong to the elastic compute line, but the article mentions no Spot or shared GPUs.",
				"elastic"),
			score(CritOnboarding, 8, "官方文档覆盖实例创建、驱动、CUDA、DeepSpeed 和推理环境。",
				"Official docs cover instance creation, drivers, CUDA, DeepSpeed and inference set-ups.",
				"docs"),
			score(CritDataAccess, 6, "数据可留在同一云的对象存储中读写，但文中未谈系统权限。",
				"Data can stay in the same cloud's object storage for reading and writing back, but the article says nothing of system access.",
				"ecosystem", "e2e"),
		},
	}
}

func tencentCloud() Platform {
	const s = "§3"
	return Platform{
		Slug: "tencent-cloud", Name: tx("腾讯云", "Tencent Cloud"), Category: "public-cloud", Section: s,
		Description: tx(
			"腾讯云 GPU 产品覆盖训练、推理、科学计算、视频编解码和图形渲染，并可连接其音视频、容器、网络及存储产品。",
			"Tencent Cloud's GPU products cover training, inference, scientific computing, video coding and graphics rendering, and connect to its media, container, network and storage products.",
		),
		Evidence: []Evidence{
			ev("workloads", s, 0, "腾讯云 GPU 产品覆盖训练、推理、科学计算、视频编解码和图形渲染。", "Tencent Cloud's GPU products cover training, inference, scientific computing, video coding and rendering.",
				"腾讯云GPU产品覆盖训练、推理、科学计算、视频编解码和图形渲染"),
			ev("ecosystem", s, 0, "GPU 产品可与其音视频、容器、网络及存储产品连接。", "GPU products connect to its media, container, network and storage products.",
				"并可以与其音视频、容器、网络及存储产品连接"),
			ev("fit", s, 0, "适合业务横跨 AI 和视频处理的企业。", "It suits firms whose business spans AI and video processing.",
				"这种产品结构适合业务横跨AI和视频处理的企业"),
			ev("types", s, 0, "计算型和渲染型实例是两类不同实例。", "Compute and rendering instances are two different kinds.",
				"计算型和渲染型实例不能混为一谈"),
			ev("render", s, 0, "渲染型实例还需确认图形驱动、编码能力和软件授权。", "Rendering instances also need checks on graphics drivers, encoding and software licences.",
				"后者还需要确认图形驱动、编码能力和软件授权"),
		},
		Attributes: map[string][]string{
			AttrDelivery:    {"cloud-host"},
			AttrIntegration: {"media-services", "containers", "cloud-network", "cloud-storage"},
			AttrGraphics:    {"rendering", "video-codec"},
			AttrWorkloads:   {"training", "inference", "scientific", "video", "graphics"},
		},
		AttributeEvidence: map[string][]string{
			AttrDelivery:    {"types"},
			AttrIntegration: {"ecosystem"},
			AttrGraphics:    {"workloads", "render"},
			AttrWorkloads:   {"workloads"},
		},
		Scores: []Score{
			score(CritDelivery, 5, "交付形态是计算型和渲染型 GPU 实例，文中未提及其他形态。",
				"Delivery is compute and rendering GPU instances; the article names no other form.",
				"types"),
			score(CritGPUs, 5, "有面向计算和渲染的不同实例类型，覆盖训练到图形渲染，但文中未点名型号。",
				"There are compute and rendering instance kinds spanning training to rendering, but the article names no models.",
				"types", "workloads"),
			score(CritIntegration, 9, "GPU 可连接音视频、容器、网络及存储产品，适合横跨 AI 与视频的企业。",
				"GPUs connect to media, container, network and storage products, suiting firms spanning AI and video.",
				"ecosystem", "fit"),
			score(CritGraphics, 7, "覆盖视频编解码和图形渲染，但渲染实例需另行确认驱动、编码和授权，文中未提及远程桌面。",
				"It covers video coding and rendering, though rendering instances need driver, encoding and licence checks; no remote desktop is mentioned.",
				"workloads", "render"),
		},
	}
}

func huaweiCloud() Platform {
	const s = "§4"
	return Platform{
		Slug: "huawei-cloud", Name: tx("华为云", "Huawei Cloud"), Category: "public-cloud", Section: s,
		Description: tx(
			"华为云提供 GPU 加速云服务器和昇腾计算资源，可接入原有网络、存储和监控环境，也是转向国产 AI 算力的一条路径。",
			"Huawei Cloud offers GPU-accelerated cloud servers and Ascend compute that join existing network, storage and monitoring, and is a route to domestic AI accelerators.",
		),
		Evidence: []Evidence{
			ev("products", s, 0, "华为云提供 GPU 加速云服务器和昇腾计算资源，可用于训练、推理、科学计算及图形工作站。", "Huawei Cloud offers GPU servers and Ascend compute for training, inference, scientific computing and graphics workstations.",
				"华为云提供GPU加速云服务器和昇腾计算资源，可用于AI训练、推理、科学计算及图形工作站"),
			ev("integration", s, 0, "已用华为云的企业，GPU 可接入原有网络、存储和监控环境。", "For firms already on Huawei Cloud, GPUs join the existing network, storage and monitoring.",
				"对于已经使用华为云的企业，GPU可以接入原有网络、存储和监控环境"),
			ev("transition", s, 0, "对考虑国产 AI 算力的团队，平台承担框架和硬件生态转换的角色。", "For teams weighing domestic AI compute, it bridges frameworks and hardware ecosystems.",
				"对于考虑国产AI算力的团队，平台还承担框架和硬件生态转换的角色"),
			ev("migration", s, 0, "CUDA 项目迁移至昇腾可能涉及框架、算子和工具链适配。", "Porting CUDA projects to Ascend may require adapting frameworks, operators and toolchains.",
				"CUDA项目迁移至昇腾环境时，可能涉及框架、算子和工具链适配"),
		},
		Attributes: map[string][]string{
			AttrDelivery:    {"cloud-host"},
			AttrGPUModels:   {"ascend"},
			AttrIntegration: {"cloud-network", "cloud-storage", "monitoring"},
			AttrGraphics:    {"graphics-workstation"},
			AttrWorkloads:   {"training", "inference", "scientific", "graphics"},
		},
		AttributeEvidence: map[string][]string{
			AttrDelivery:    {"products"},
			AttrGPUModels:   {"products", "transition"},
			AttrIntegration: {"integration"},
			AttrGraphics:    {"products"},
			AttrWorkloads:   {"products"},
		},
		Scores: []Score{
			score(CritDelivery, 5, "交付形态是 GPU 加速云服务器和昇腾计算资源。",
				"Delivery is GPU-accelerated cloud servers and Ascend compute.",
				"products"),
			score(CritGPUs, 6, "在 GPU 之外提供昇腾这一国产选择，但文中未点名 GPU 型号。",
				"Besides GPUs it offers Ascend as a domestic option, but the article names no GPU models.",
				"products", "transition"),
			score(CritIntegration, 9, "GPU 可接入原有网络、存储和监控环境。",
				"GPUs join the existing network, storage and monitoring.",
				"integration"),
			score(CritGraphics, 5, "资源可用于图形工作站，但文中未谈远程桌面体验。",
				"Its resources can serve as graphics workstations, but the article says nothing of the remote-desktop experience.",
				"products"),
			score(CritOnboarding, 5, "CUDA 项目迁移至昇腾需适配框架、算子和工具链，增加上手成本。",
				"Porting CUDA projects to Ascend needs framework, operator and toolchain work, which raises the entry cost.",
				"migration"),
		},
	}
}

func volcengine() Platform {
	const s = "§5"
	return Platform{
		Slug: "volcengine", Name: tx("火山引擎", "Volcano Engine"), Category: "ai-cloud", Section: s,
		Description: tx(
			"火山引擎从 GPU 实例延伸到训练集群，提供 GPU 计算型、高性能计算 GPU、容器共享、RDMA 网络和并行文件存储。",
			"Volcano Engine extends from GPU instances to training clusters, offering compute and HPC GPUs, container sharing, RDMA networking and parallel file storage.",
		),
		Evidence: []Evidence{
			ev("headline", s, 0, "火山引擎从 GPU 实例延伸到训练集群。", "Volcano Engine extends from GPU instances to training clusters.",
				"火山引擎：从GPU实例延伸到训练集群"),
			ev("products", s, 0, "提供 GPU 计算型、高性能计算 GPU、容器共享、RDMA 网络和并行文件存储。", "It offers compute GPUs, HPC GPUs, container sharing, RDMA networking and parallel file storage.",
				"火山引擎提供GPU计算型、高性能计算GPU、容器共享、RDMA网络和并行文件存储等产品能力"),
			ev("infra", s, 0, "网络、存储与 GPU 放在同一套训练基础设施中评估。", "Network, storage and GPUs are assessed as one training infrastructure.",
				"火山引擎的产品组合将这几部分放在同一套训练基础设施中评估"),
			ev("slicing", s, 0, "推理场景中可测试 GPU 资源切分。", "For inference, users can try slicing GPU resources.",
				"在推理场景中，用户还可以测试GPU资源切分"),
			ev("shared", s, 0, "模型较小、请求波动时，共享 GPU 可能减少闲置。", "With small models and fluctuating requests, shared GPUs may cut idle time.",
				"模型较小、请求具有波动时，共享GPU可能减少闲置"),
			ev("split", s, 0, "训练关注吞吐和多卡扩展效率，推理关注并发、延迟及弹性启动速度。", "Training is judged by throughput and multi-GPU scaling; inference by concurrency, latency and start-up speed.",
				"训练关注吞吐和多卡扩展效率，推理关注并发、延迟及弹性启动速度"),
		},
		Attributes: map[string][]string{
			AttrDelivery:    {"cloud-host", "container", "gpu-sharing", "cluster"},
			AttrClusterInfr: {"rdma", "parallel-storage"},
			AttrScale:       {"multi-gpu", "multi-node"},
			AttrWorkloads:   {"training", "inference", "scientific"},
		},
		AttributeEvidence: map[string][]string{
			AttrDelivery:    {"headline", "products"},
			AttrClusterInfr: {"products"},
			AttrScale:       {"headline", "split"},
			AttrWorkloads:   {"headline", "slicing", "products"},
		},
		Scores: []Score{
			score(CritDelivery, 7, "从 GPU 实例、容器共享延伸到训练集群。",
				"It extends from GPU instances and container sharing to training clusters.",
				"headline", "products"),
			score(CritGPUs, 5, "有 GPU 计算型与高性能计算 GPU 两类，但文中未点名型号。",
				"It has compute and HPC GPU kinds, but the article names no models.",
				"products"),
			score(CritCluster, 9, "RDMA 网络和并行文件存储与 GPU 同属一套训练基础设施。",
				"RDMA networking and parallel file storage form one training infrastructure with the GPUs.",
				"products", "infra"),
			score(CritElasticity, 7, "推理可用 GPU 切分与共享 GPU 减少闲置，但文中未提及 Spot。",
				"Inference can use GPU slicing and shared GPUs to cut idle time, but the article mentions no Spot.",
				"slicing", "shared"),
		},
	}
}

func qingcloud() Platform {
	const s = "§6"
	return Platform{
		Slug: "qingcloud", Name: tx("青云QingCloud", "QingCloud"), Category: "ai-cloud", Section: s,
		Description: tx(
			"青云 QingCloud 的 AI 算力云提供 GPU 裸金属主机、AI 训练集群、并行文件存储和镜像仓库，将计算、网络、存储和深度学习环境一起交付。",
			"QingCloud's AI compute cloud offers GPU bare-metal hosts, AI training clusters, parallel file storage and an image registry, delivering compute, network, storage and a deep-learning environment together.",
		),
		Evidence: []Evidence{
			ev("products", s, 0, "AI 算力云提供 GPU 裸金属主机、AI 训练集群、并行文件存储和镜像仓库。", "Its AI compute cloud offers GPU bare-metal hosts, AI training clusters, parallel file storage and an image registry.",
				"青云QingCloud的AI算力云提供GPU裸金属主机、AI训练集群、并行文件存储和镜像仓库"),
			ev("scope", s, 0, "并非单纯面向短期单卡实验。", "It is not aimed merely at short single-GPU experiments.",
				"这类产品并不是单纯面向短期单卡实验"),
			ev("bundle", s, 0, "计算节点、网络、存储和深度学习环境一起交付。", "Compute nodes, network, storage and a deep-learning environment are delivered together.",
				"将计算节点、网络、存储和深度学习环境一起交付"),
			ev("gpus", s, 0, "据官方资料，资源覆盖 NVIDIA H 系列、A 系列和 RTX 4090 等。", "Per official material, it covers NVIDIA H series, A series, RTX 4090 and more.",
				"其资源覆盖NVIDIA H系列、A系列和RTX 4090等"),
			ev("lease", s, 0, "支持弹性使用与整租。", "It supports elastic use and whole-machine leases.",
				"并支持弹性使用与整租"),
			ev("multinode", s, 0, "多机多卡项目中，并行存储和网络可能比单张 GPU 参数更重要。", "For multi-node projects, parallel storage and networking may matter more than a single GPU's specs.",
				"对于多机多卡项目，并行存储和网络能力可能比单张GPU参数更重要"),
		},
		Attributes: map[string][]string{
			AttrDelivery:    {"bare-metal", "cluster"},
			AttrGPUModels:   {"nvidia-h-series", "nvidia-a-series", "rtx-4090"},
			AttrClusterInfr: {"parallel-storage"},
			AttrScale:       {"multi-gpu", "multi-node"},
			AttrBilling:     {"elastic", "whole-lease"},
			AttrWorkloads:   {"training"},
			AttrEnvironment: {"image-registry", "dl-environment"},
		},
		AttributeEvidence: map[string][]string{
			AttrDelivery:    {"products"},
			AttrGPUModels:   {"gpus"},
			AttrClusterInfr: {"products"},
			AttrScale:       {"multinode", "products"},
			AttrBilling:     {"lease"},
			AttrWorkloads:   {"products"},
			AttrEnvironment: {"products", "bundle"},
		},
		Scores: []Score{
			score(CritDelivery, 8, "提供裸金属主机、训练集群与镜像仓库，并支持弹性使用与整租。",
				"It offers bare-metal hosts, training clusters and an image registry, with elastic use or whole-machine leases.",
				"products", "lease"),
			score(CritGPUs, 7, "官方资料覆盖 NVIDIA H 系列、A 系列和 RTX 4090，但只点名系列。",
				"Official material covers NVIDIA H and A series and RTX 4090, though it names series rather than models.",
				"gpus"),
			score(CritCluster, 9, "训练集群与并行文件存储随计算节点和网络一起交付。",
				"Training clusters and parallel file storage are delivered with compute nodes and network.",
				"products", "bundle"),
			score(CritElasticity, 6, "支持弹性使用与整租，但文中未提及 Spot。",
				"It supports elastic use and whole-machine leases, but the article mentions no Spot.",
				"lease"),
			score(CritOnboarding, 5, "随交付提供深度学习环境，但并非单纯面向短期单卡实验。",
				"A deep-learning environment comes with delivery, but it is not aimed merely at short single-GPU experiments.",
				"bundle", "scope"),
			score(CritDataAccess, 7, "GPU 裸金属主机意味着整机使用，但文中未谈数据保留。",
				"GPU bare-metal hosts mean a whole machine, but the article says nothing of data retention.",
				"products"),
		},
	}
}

func ppio() Platform {
	const s = "§7"
	return Platform{
		Slug: "ppio", Name: tx("PPIO派欧云", "PPIO"), Category: "ai-cloud", Section: s,
		Description: tx(
			"PPIO 派欧云提供 GPU 容器、按需租赁、Spot 资源、裸金属及私有化部署，并覆盖多个海外区域。",
			"PPIO offers GPU containers, on-demand rental, Spot capacity, bare metal and private deployment, across several overseas regions.",
		),
		Evidence: []Evidence{
			ev("forms", s, 0, "PPIO 提供 GPU 容器、按需租赁、Spot 资源、裸金属及私有化部署。", "PPIO offers GPU containers, on-demand rental, Spot capacity, bare metal and private deployment.",
				"PPIO派欧云提供GPU容器、按需租赁、Spot资源、裸金属及私有化部署"),
			ev("regions", s, checkTerms, "PPIO 覆盖多个海外区域。", "PPIO covers several overseas regions.",
				"私有化部署，并覆盖多个海外区域"),
			ev("fit", s, 0, "适合需求有地域差异、明显波动或希望用抢占式资源的团队。", "It suits teams whose demand varies by region or fluctuates, or who want preemptible capacity.",
				"这种交付方式适合算力需求具有地域差异、明显波动或希望使用抢占式资源的团队"),
			ev("spot", s, mayChange, "Spot 价格可能较低但可能被回收，适合能保存检查点并恢复的任务。", "Spot may be cheaper but can be reclaimed; it suits jobs that checkpoint and resume.",
				"Spot模式价格可能较低，但资源存在被回收的可能，更适合可以保存检查点和恢复运行的任务"),
			ev("autoscale", s, 0, "生产推理可用弹性调度和自动扩缩容。", "Production inference can use elastic scheduling and autoscaling.",
				"对于生产推理，PPIO还提供弹性调度和自动扩缩容相关能力"),
			ev("verify", s, checkTerms, "正式使用前应核对资源保护时间、回收通知、数据存储和地域网络。", "Before production, check protection time, reclaim notice, data storage and regional network.",
				"正式使用时，应分别核对资源保护时间、回收通知、数据存储和地域网络"),
		},
		Attributes: map[string][]string{
			AttrDelivery:  {"container", "bare-metal", "private-deployment"},
			AttrBilling:   {"on-demand", "spot", "autoscaling"},
			AttrRegions:   {"overseas"},
			AttrWorkloads: {"inference"},
		},
		AttributeEvidence: map[string][]string{
			AttrDelivery:  {"forms"},
			AttrBilling:   {"forms", "autoscale"},
			AttrRegions:   {"regions"},
			AttrWorkloads: {"autoscale"},
		},
		Scores: []Score{
			score(CritDelivery, 9, "容器、按需、Spot、裸金属与私有化部署并存。",
				"Containers, on-demand, Spot, bare metal and private deployment sit side by side.",
				"forms"),
			score(CritElasticity, 10, "文中唯一提供 Spot 资源的平台，另有弹性调度和自动扩缩容。",
				"The only platform in the article with Spot capacity, plus elastic scheduling and autoscaling.",
				"spot", "autoscale", "fit"),
			score(CritDataAccess, 6, "裸金属与私有化部署可掌控机器和数据，但 Spot 下需核对数据存储与回收通知。",
				"Bare metal and private deployment give control of machines and data, but under Spot data storage and reclaim notice need checking.",
				"forms", "verify"),
		},
	}
}

func matpool() Platform {
	const s = "§8"
	return Platform{
		Slug: "matpool", Name: tx("矩池云", "Matpool"), Category: "lightweight", Section: s,
		Description: tx(
			"矩池云是 GPU 云共享平台，面向 AI 学习者、开发者和研究人员提供按需 GPU 云主机，适合论文复现、课程实验和中小规模训练。",
			"Matpool is a shared GPU cloud offering on-demand GPU servers to AI learners, developers and researchers, suited to paper reproduction, coursework and small-to-medium training.",
		),
		Evidence: []Evidence{
			ev("what", s, 0, "矩池云面向 AI 学习者、开发者和研究人员提供按需 GPU 云主机。", "Matpool offers on-demand GPU servers to AI learners, developers and researchers.",
				"矩池云是GPU云共享平台，主要面向AI学习者、开发者和研究人员提供按需GPU云主机"),
			ev("support", s, 0, "支持中心包含实例使用、环境配置和入门教程。", "Its help centre covers instance use, environment set-up and beginner tutorials.",
				"其支持中心包含实例使用、环境配置和入门教程"),
			ev("advice", s, 0, "建议首次使用者先用较低配置调试代码，算力不足时再升级。", "It advises first-time users to debug on a smaller configuration and upgrade when needed.",
				"对于第一次使用GPU的用户，平台建议先用较低配置完成代码调试，算力不足时再升级"),
			ev("fit", s, 0, "适合论文复现、课程实验和中小规模训练。", "It suits paper reproduction, coursework and small-to-medium training.",
				"这种方式适合论文复现、课程实验和中小规模训练"),
			ev("verify", s, liveStock, "用户仍需确认实例权限、数据保存、CPU 内存配置和目标 GPU 的实时库存。", "Users must still check instance permissions, data keeping, CPU and memory, and live stock of the target GPU.",
				"用户仍需确认实例权限、数据保存、CPU内存配置和目标GPU的实时库存"),
		},
		Attributes: map[string][]string{
			AttrDelivery:    {"cloud-host"},
			AttrBilling:     {"on-demand"},
			AttrWorkloads:   {"training", "development"},
			AttrEnvironment: {"tutorials"},
		},
		AttributeEvidence: map[string][]string{
			AttrDelivery:    {"what"},
			AttrBilling:     {"what"},
			AttrWorkloads:   {"what", "fit"},
			AttrEnvironment: {"support"},
		},
		Scores: []Score{
			score(CritDelivery, 4, "交付形态只有按需 GPU 云主机。",
				"The only delivery form is on-demand GPU cloud servers.",
				"what"),
			score(CritCluster, 3, "定位于中小规模训练，文中未提及集群网络或并行存储。",
				"It targets small-to-medium training; the article mentions no cluster network or parallel storage.",
				"fit"),
			score(CritElasticity, 6, "按需云主机可先用低配调试、再按需升级，但文中未提及 Spot。",
				"On-demand servers let users debug small and upgrade later, but the article mentions no Spot.",
				"what", "advice"),
			score(CritOnboarding, 10, "有入门教程与环境配置指南，并为首次使用者给出从低配起步的建议。",
				"Beginner tutorials and set-up guides, plus advice for first-time users to start small.",
				"support", "advice"),
		},
	}
}

func qingjiao() Platform {
	const s = "§9"
	return Platform{
		Slug: "qingjiao", Name: tx("青椒云", "Qingjiao Cloud"), Category: "lightweight", Section: s,
		Description: tx(
			"青椒云以高性能 GPU 云桌面和云图形工作站交付资源，面向设计、影视、三维动画、工业设计和虚拟仿真，而非大模型训练。",
			"Qingjiao Cloud delivers GPUs as high-performance cloud desktops and graphics workstations for design, film, 3D animation, industrial design and simulation, not large-model training.",
		),
		Evidence: []Evidence{
			ev("forms", s, 0, "主要产品形态是高性能 GPU 云桌面和云图形工作站。", "Its main products are high-performance GPU cloud desktops and graphics workstations.",
				"其主要产品形态是高性能GPU云桌面和云图形工作站"),
			ev("users", s, 0, "面向视觉设计、影视制作、三维动画、工业设计和虚拟仿真。", "It serves visual design, film, 3D animation, industrial design and virtual simulation.",
				"这类服务面向视觉设计、影视制作、三维动画、工业设计和虚拟仿真"),
			ev("focus", s, 0, "用户关注远程画面、输入延迟、大文件传输、软件兼容和图形驱动，而非训练框架与多卡通信。", "Users care about the remote picture, input latency, file transfer, software and drivers, not training frameworks or multi-GPU links.",
				"用户更关注远程画面、输入延迟、大文件传输、软件兼容和图形驱动，而不是训练框架与多卡通信"),
			ev("limit", s, 0, "不能直接代替面向大模型训练的多机多卡平台。", "It cannot directly replace multi-node platforms for large-model training.",
				"不能直接代替面向大模型训练的多机多卡平台"),
			ev("fit", s, 0, "适合需要远程图形工作环境的用户。", "It suits users who need a remote graphics workspace.",
				"青椒云适合需要远程图形工作环境的用户"),
			ev("category", "§0", 0, "轻量化平台面向开发、科研或图形应用提供轻量化使用环境。", "Lightweight platforms offer easy environments for development, research or graphics.",
				"面向开发、科研或图形应用提供轻量化使用环境的平台"),
		},
		Attributes: map[string][]string{
			AttrDelivery:  {"cloud-desktop", "graphics-workstation"},
			AttrGraphics:  {"remote-desktop", "graphics-workstation"},
			AttrWorkloads: {"graphics"},
		},
		AttributeEvidence: map[string][]string{
			AttrDelivery:  {"forms"},
			AttrGraphics:  {"forms", "focus"},
			AttrWorkloads: {"users"},
		},
		Scores: []Score{
			score(CritDelivery, 5, "交付形态是 GPU 云桌面和云图形工作站两种。",
				"Delivery takes two forms, GPU cloud desktops and graphics workstations.",
				"forms"),
			score(CritCluster, 1, "文中明确指出它不能代替大模型训练的多机多卡平台。",
				"The article states plainly that it cannot replace multi-node platforms for large-model training.",
				"limit", "focus"),
			score(CritGraphics, 10, "以云桌面和图形工作站交付，专注远程画面、输入延迟、大文件传输和图形驱动。",
				"It delivers cloud desktops and graphics workstations, focused on the remote picture, input latency, file transfer and drivers.",
				"forms", "users", "focus", "fit"),
			score(CritOnboarding, 6, "属于降低图形应用门槛的轻量化平台，但文中未提及教程或文档。",
				"It is a lightweight platform that lowers the barrier for graphics work, but the article mentions no tutorials or docs.",
				"category", "fit"),
		},
	}
}
